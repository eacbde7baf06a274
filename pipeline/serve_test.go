package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/winnow-go/winnow/infholder"
)

func TestSavedSitesGroup(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"a.example/", "a.example/news/", "a.example/news/world/", "b.example/blog/"} {
		if err := dirStore(dir).Save(&infholder.Template{Version: infholder.TemplateVersion, Group: g, Signature: infholder.SigContent, Sigs: map[uint32]float64{1: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "notes.json"), []byte("{}"), 0o644) // not a template a run saved
	s, err := LoadSavedSites(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 4 {
		t.Fatalf("%d templates, want 4", s.Len())
	}
	for _, c := range []struct{ url, group string }{
		{"https://www.a.example/news/world/2026/story", "a.example/news/world/"},
		{"https://a.example/news/story", "a.example/news/"},
		{"https://a.example/newsroom/story", "a.example/"},
		{"https://a.example/", "a.example/"},
		{"https://b.example/blog/post", "b.example/blog/"},
		{"https://b.example/shop/item", "b.example/"}, // no saved group: the page's own
		{"https://c.example/x/y", "c.example/"},
	} {
		t.Run(c.url, func(t *testing.T) {
			g := s.Group(c.url)
			if g != c.group {
				t.Errorf("Group = %q, want %q", g, c.group)
			}
			if (s.Sites().Template(g) != nil) != (c.group != "b.example/" && c.group != "c.example/") {
				t.Errorf("template of %q: %v", g, s.Sites().Template(g))
			}
		})
	}
	if _, err := LoadSavedSites(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing folder loads")
	}
}
