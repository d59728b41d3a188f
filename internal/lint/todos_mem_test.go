package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
)

// TestTodosNotKept: a todos document is dropped once its file rules have
// run (a store of large todos files must not stay in memory whole), and
// its findings are still reported.
func TestTodosNotKept(t *testing.T) {
	dir := t.TempDir()
	todos := filepath.Join(dir, "todos")
	if err := os.MkdirAll(todos, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77-agent-0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77.json"
	if err := os.WriteFile(filepath.Join(todos, name), []byte(`[{"content":"x","status":"bogus","activeForm":"y"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	res := benchEngine(t, Options{Jobs: 1}).Run(found)
	if len(res.Findings) == 0 {
		t.Fatal("no finding for a todo with a bad status")
	}
	for _, f := range res.src {
		if f.Kind == layout.Todos && (f.Doc != nil || f.DocValue != nil) {
			t.Errorf("%s: document still held after the run", f.Path)
		}
	}
}
