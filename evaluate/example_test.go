package evaluate_test

import (
	"fmt"

	"github.com/winnow-go/winnow/evaluate"
)

func ExampleScoreBagOfWords() {
	s := evaluate.ScoreBagOfWords("深圳 新闻 today", "深圳新闻 today and more")
	fmt.Printf("P %.2f R %.2f F1 %.2f\n", s.Precision, s.Recall, s.F1)
	// Output: P 0.71 R 1.00 F1 0.83
}
