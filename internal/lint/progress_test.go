package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
)

func TestProgressHook(t *testing.T) {
	dir := t.TempDir()
	var want int64
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
		data := []byte(`{"type":"user"}` + "\n" + `{"type":"user","x":1}` + "\n")
		want += int64(len(data))
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := layout.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	var calls []int
	var last int64
	e, err := New(Options{Jobs: 3, Progress: func(files int, bytes int64) {
		calls = append(calls, files) // serialized: no lock needed here
		if bytes < last {
			t.Errorf("bytes went down: %d after %d", bytes, last)
		}
		last = bytes
	}})
	if err != nil {
		t.Fatal(err)
	}
	e.Run(found)
	if len(calls) != 3 || calls[0] != 1 || calls[2] != 3 || last != want {
		t.Errorf("calls %v, last bytes %d; want 1..3 and %d", calls, last, want)
	}
}
