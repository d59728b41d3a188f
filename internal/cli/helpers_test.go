package cli

// Helpers shared by tests of every platform (some test files are Unix-only).

import (
	"os"
	"path/filepath"
	"testing"
)

func isolate(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func rulesOf(out jsonOut) map[string]int {
	m := map[string]int{}
	for _, f := range out.Findings {
		m[f.Rule]++
	}
	return m
}
