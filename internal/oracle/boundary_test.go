//go:build unix

package oracle

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestOnly: internal/oracle is test-only code: no non-test file outside
// it imports it, and it has no main package.
func TestTestOnly(t *testing.T) {
	root := filepath.Join("..", "..")
	const imp = `"github.com/ccvet/ccvet/internal/oracle"`
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == ".ci") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		inOracle := filepath.Base(filepath.Dir(p)) == "oracle" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "internal"
		if inOracle && strings.Contains(string(b), "\npackage main\n") {
			t.Errorf("%s: a main package in internal/oracle", p)
		}
		if !inOracle && !strings.HasSuffix(p, "_test.go") && strings.Contains(string(b), imp) {
			t.Errorf("%s imports internal/oracle outside a test", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
