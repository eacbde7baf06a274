package dedupgen

import (
	"io"
	"testing"
)

func BenchmarkGold(b *testing.B) {
	p := pool(b)
	g, _ := New(p, Options{Docs: 20000, Seed: 1})
	for b.Loop() {
		g.WriteGold(io.Discard, 1)
	}
}

func BenchmarkDocs(b *testing.B) {
	p := pool(b)
	g, _ := New(p, Options{Docs: 20000, Seed: 1})
	for b.Loop() {
		g.WriteDocs(io.Discard, 1)
	}
}
