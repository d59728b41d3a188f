package readonly

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestHandleReadsToSizeAtOpen: bytes appended after the open are not read,
// Grew says they were, and a read at the end is io.EOF.
func TestHandleReadsToSizeAtOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("{\"a\":1}\n{\"b\":"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHandle(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Size() != 13 || h.Grew() {
		t.Fatalf("Size %d, Grew %v: want 13, false", h.Size(), h.Grew())
	}
	w, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("2}\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := io.ReadAll(io.Reader(h))
	if err != nil || string(got) != "{\"a\":1}\n{\"b\":" {
		t.Fatalf("read %q, %v", got, err)
	}
	if !h.Grew() {
		t.Error("Grew() = false after an append")
	}
	if n, err := h.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("Read at the end = %d, %v; want 0, io.EOF", n, err)
	}
}

// TestHandleShrunk: a file cut shorter after the open ends early with
// io.EOF, not an error.
func TestHandleShrunk(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHandle(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := os.Truncate(p, 4); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(io.Reader(h))
	if err != nil || string(got) != "0123" {
		t.Errorf("read %q, %v; want \"0123\", nil", got, err)
	}
}

// TestHandleErrors: the errors are os.File's: a missing file is
// fs.ErrNotExist in a "open" *os.PathError with the path, a folder is not
// a regular file, and without follow a link is refused.
func TestHandleErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone.jsonl")
	_, err := OpenHandle(missing, false)
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %#v", err)
	}
	if _, err := OpenHandle(dir, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a folder: %v, want ErrNotRegular", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.jsonl")
	if err := os.Symlink(p, link); err != nil {
		t.Skip(err)
	}
	if _, err := OpenHandle(link, false); err == nil {
		t.Error("a link opened without follow")
	}
	h, err := OpenHandle(link, true)
	if err != nil {
		t.Fatalf("a link with follow: %v", err)
	}
	h.Close()
}

// TestHandleReadAt: ReadAt reads at any offset up to the size at open
// (bytes appended later are not read), does not move Read's place, and
// says io.EOF past the end or for a read cut by it.
func TestHandleReadAt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHandle(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	w, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("abc"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, c := range []struct {
		off, n int
		want   string
		eof    bool
	}{{0, 4, "0123", false}, {6, 4, "6789", false}, {8, 4, "89", true}, {10, 3, "", true}, {12, 1, "", true}} {
		buf := make([]byte, c.n)
		n, err := h.ReadAt(buf, int64(c.off))
		if string(buf[:n]) != c.want || (err == io.EOF) != c.eof || err != nil && err != io.EOF {
			t.Errorf("ReadAt(%d bytes at %d) = %q, %v; want %q, EOF %v", c.n, c.off, buf[:n], err, c.want, c.eof)
		}
	}
	if _, err := h.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("ReadAt at -1: no error")
	}
	got, err := io.ReadAll(io.Reader(h))
	if err != nil || string(got) != "0123456789" {
		t.Errorf("Read after ReadAt: %q, %v", got, err)
	}
}
