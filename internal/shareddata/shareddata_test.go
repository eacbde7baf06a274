package shareddata

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestDirNestedModule: a module nested in the repository (beam/) finds
// the data beside the repository, not beside itself.
func TestDirNestedModule(t *testing.T) {
	root := t.TempDir()
	repo, data := filepath.Join(root, "repo"), filepath.Join(root, "shared", "data")
	nested := filepath.Join(repo, "beam", "cmd")
	for _, d := range []string{nested, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{repo, filepath.Join(repo, "beam")} {
		if err := os.WriteFile(filepath.Join(m, "go.mod"), []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvVar, "")
	t.Chdir(nested)
	got, err := Dir()
	want, _ := filepath.EvalSymlinks(data)
	if g, _ := filepath.EvalSymlinks(got); err != nil || g != want {
		t.Fatalf("Dir() = %q, %v; want %q", got, err, want)
	}
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); !errors.Is(err, ErrNotFound) {
		t.Errorf("without the data Dir() error = %v, want ErrNotFound", err)
	}
}
