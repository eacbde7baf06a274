package textseg_test

import (
	"fmt"

	"github.com/winnow-go/winnow/internal/textseg"
)

func ExampleWords() {
	s := "Tokyo 東京タワー, 333m_high!"
	fmt.Printf("%q\n", textseg.Words(s, nil))
	fmt.Printf("%q\n", textseg.Words(s, textseg.IsCJK))
	// Output:
	// ["Tokyo" "東京タワー" "333m_high"]
	// ["Tokyo" "東" "京" "タ" "ワ" "ー" "333m_high"]
}
