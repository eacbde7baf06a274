package langid_test

import (
	"fmt"

	"github.com/winnow-go/winnow/langid"
)

func ExampleIdentifier_Identify() {
	id := langid.Default() // built once, shared by every goroutine
	for _, text := range []string{
		"Die Bundesregierung hat am Mittwoch einen Gesetzentwurf beschlossen, der die Mieten in Großstädten begrenzen soll.",
		"Правительство в среду одобрило законопроект, который ограничит арендную плату в крупных городах.",
		"政府周三批准了一项法案，将限制大城市的房租。",
		"政府は水曜日、大都市の家賃を制限する法案を承認した。",
	} {
		lang, conf := id.Identify(text)
		fmt.Println(lang, conf > 0.9)
	}
	// Output:
	// de true
	// ru true
	// zh true
	// ja true
}
