package peers

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MainModule is the module path of winnow's main module, whose folder is
// the repository root.
const MainModule = "github.com/winnow-go/winnow"

// OutSubdir is where the outputs live in the main module.
const OutSubdir = "evaluate/testdata/peers"

// ErrNoRepo is returned when no folder above the working directory holds
// winnow's main go.mod.
var ErrNoRepo = errors.New("peers: no go.mod of " + MainModule + " above the working directory")

// RepoRoot walks up from the working directory to the folder whose go.mod
// declares the main module (this module's own go.mod, in peers/, is passed
// over).
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("peers: %w", err)
	}
	for dir := wd; ; {
		if modulePath(filepath.Join(dir, "go.mod")) == MainModule {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoRepo
		}
		dir = parent
	}
}

func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// DataDir returns the shared data folder as the main module's
// internal/shareddata finds it: $WINNOW_DATA when set, else ../shared/data
// beside the repository root. It checks that the folder exists.
func DataDir() (string, error) {
	d := os.Getenv("WINNOW_DATA")
	if d == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", err
		}
		d = filepath.Join(root, "..", "shared", "data")
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("peers: %w", err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", fmt.Errorf("peers: shared data not found at %s (set WINNOW_DATA or pass -data)", abs)
	}
	return abs, nil
}

// OutDir returns the main module's evaluate/testdata/peers folder.
func OutDir() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, OutSubdir), nil
}

// InUTC makes sure the process runs with TZ=UTC. go-htmldate reads the
// local time zone once, when its package is initialised (before main or
// TestMain), and uses it for its date bounds, so TZ cannot be set from
// inside. When TZ is not "UTC", InUTC runs the same executable again with
// TZ=UTC and returns its exit code and true; the caller exits with that code.
func InUTC() (code int, ran bool) {
	if os.Getenv("TZ") == "UTC" {
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), true
		}
		fmt.Fprintln(os.Stderr, "peers: re-running with TZ=UTC:", err)
		return 1, true
	}
	return 0, true
}
