//go:build unix

package oracle

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestOnly: internal/oracle and internal/fix/store/storetest are
// test-only code: no non-test file outside them imports them, and
// internal/oracle has no main package.
func TestTestOnly(t *testing.T) {
	root := filepath.Join("..", "..")
	testOnly := map[string]string{ // import path: its folder
		`"github.com/ccvet/ccvet/internal/oracle"`:              filepath.Join("internal", "oracle"),
		`"github.com/ccvet/ccvet/internal/fix/store/storetest"`: filepath.Join("internal", "fix", "store", "storetest"),
	}
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
		for imp, dir := range testOnly {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if rel != dir && !strings.HasSuffix(p, "_test.go") && strings.Contains(string(b), imp) {
				t.Errorf("%s imports %s outside a test", p, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
