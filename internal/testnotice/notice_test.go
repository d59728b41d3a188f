package testnotice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintAppends(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	Print("ccvet: one")
	Print("ccvet: two")
	data, err := os.ReadFile(filepath.Join(os.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " ccvet: one") || !strings.HasSuffix(lines[1], " ccvet: two") {
		t.Errorf("got %q", data)
	}
}
