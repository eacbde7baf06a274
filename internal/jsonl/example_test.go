package jsonl_test

import (
	"fmt"
	"strings"

	"github.com/winnow-go/winnow/internal/jsonl"
)

// A line over the limit is reported without its bytes, and reading goes
// on: memory stays bounded whatever the input.
func ExampleScanLimit() {
	in := "{\"a\":1}\n" + `{"b":"` + strings.Repeat("x", 100) + "\"}\n{\"c\":3}\n"
	jsonl.ScanLimit(strings.NewReader(in), "in.jsonl", 50, func(line int, b []byte, long bool) error {
		fmt.Println(line, string(b), long)
		return nil
	})
	// Output:
	// 1 {"a":1} false
	// 2  true
	// 3 {"c":3} false
}
