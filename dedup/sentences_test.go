package dedup

import (
	"reflect"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		want []string
	}{
		{"english", "The cat sat. The dog ran! Did it? Yes.", []string{"The cat sat.", "The dog ran!", "Did it?", "Yes."}},
		{"titles", "Mr. Smith met Dr. Jones at 5 p.m. on Friday. They talked.", []string{"Mr. Smith met Dr. Jones at 5 p.m. on Friday.", "They talked."}},
		{"initials", "J. R. R. Tolkien wrote it. It sold.", []string{"J. R. R. Tolkien wrote it.", "It sold."}},
		{"decimal-and-eg", "Pi is 3.14 and e.g. this stays. Next one.", []string{"Pi is 3.14 and e.g. this stays.", "Next one."}},
		{"quoted", "He said \"Stop.\" Then he left.", []string{"He said \"Stop.\"", "Then he left."}},
		{"ellipsis", "Wait... What happened?! Nothing.", []string{"Wait...", "What happened?!", "Nothing."}},
		{"russian-initials", "А. С. Пушкин родился в Москве. Это было в 1799 г. в мае.", []string{"А. С. Пушкин родился в Москве.", "Это было в 1799 г. в мае."}},
		{"russian-abbreviations", "Дом на ул. Ленина, т. е. в центре. Цена 5 млн. рублей. Всё.", []string{"Дом на ул. Ленина, т. е. в центре.", "Цена 5 млн. рублей.", "Всё."}},
		{"heading", "Заголовок без точки\n\nПервый абзац. Второе предложение.", []string{"Заголовок без точки", "Первый абзац.", "Второе предложение."}},
		{"chinese", "今天天气很好。我们去公园！你呢？", []string{"今天天气很好。", "我们去公园！", "你呢？"}},
		{"domain", "Visit www.example.com today. Thanks.", []string{"Visit www.example.com today.", "Thanks."}},
		{"tab", "cell one\tcell two\nrow two", []string{"cell one\tcell two", "row two"}},
		{"empty", "", nil},
		{"blank", "  \n \n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Sentences(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", c.text, got, c.want)
			}
		})
	}
}

// FuzzSentences: splitting loses and adds nothing but white space.
func FuzzSentences(f *testing.F) {
	for _, s := range []string{"Mr. A. B. went. Then?! «Да.» Всё…", "今天。好！\nx", "3.14. e.g. 1.", "...", "a.\n\nB."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		squash := func(x string) string { return strings.Join(strings.Fields(x), "") }
		if got, want := squash(strings.Join(Sentences(s), " ")), squash(s); got != want {
			t.Errorf("Sentences(%q) lost text: %q vs %q", s, got, want)
		}
	})
}
