package testnotice

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestAppending(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		flag int
		want bool
	}{{os.O_WRONLY | os.O_CREATE | os.O_TRUNC, false}, {os.O_WRONLY | os.O_CREATE | os.O_APPEND, true}} {
		f, err := os.OpenFile(filepath.Join(dir, "log"), c.flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		got := appending(fmt.Sprintf("/proc/self/fdinfo/%d", f.Fd()))
		_ = f.Close()
		if got != c.want {
			t.Errorf("flags %o: appending = %v, want %v", c.flag, got, c.want)
		}
	}
}
