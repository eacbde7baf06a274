package ascii_test

import (
	"fmt"

	"github.com/winnow-go/winnow/internal/ascii"
)

func ExampleIndexFold() {
	head := []byte(`<HTML><Head><LINK REL="Canonical" href="https://a.example/">`)
	fmt.Println(ascii.IndexFold(head, "canonical"), ascii.IndexFold(head, "<base"))
	// Output: 23 -1
}
