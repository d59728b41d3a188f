package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/layout"
)

func TestFormatProgress(t *testing.T) {
	cases := []struct {
		files, total int
		bytes, tb    int64
		elapsed      time.Duration
		want         string
	}{
		{12, 40, 3_500_000, 10_000_000, 2 * time.Second, "ccvet: 12/40 files, 3.5/10.0 MB, 1.8 MB/s"},
		{0, 3, 0, 1234, 0, "ccvet: 0/3 files, 0.0/0.0 MB, 0.0 MB/s"},
		{1000, 1000, 1_950_000_000, 1_950_000_000, 50 * time.Second, "ccvet: 1000/1000 files, 1950.0/1950.0 MB, 39.0 MB/s"},
	}
	for _, c := range cases {
		if got := formatProgress(c.files, c.total, c.bytes, c.tb, c.elapsed); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// lockedBuffer is written by the progress goroutine while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func fastProgress(t *testing.T, terminal bool) {
	t.Helper()
	delay, every, isTerm := progressDelay, progressEvery, isTerminal
	t.Cleanup(func() { progressDelay, progressEvery, isTerminal = delay, every, isTerm })
	progressDelay, progressEvery = 0, time.Millisecond
	isTerminal = func(io.Writer) bool { return terminal }
}

func TestProgressOnTerminal(t *testing.T) {
	fastProgress(t, true)
	var buf lockedBuffer
	found := &layout.Result{Files: []*layout.File{{Size: 2_000_000}, {Size: 1_000_000}}}
	p := newProgress(&buf, true, found)
	p.update(1, 2_000_000)
	p.begin()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "1/2 files, 2.0/3.0 MB") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	p.update(2, 3_000_000)
	time.Sleep(20 * time.Millisecond)
	p.end()
	p.end() // twice is harmless
	out := buf.String()
	if !strings.HasPrefix(out, "\rccvet: 1/2 files, 2.0/3.0 MB, ") || !strings.Contains(out, "2/2 files") {
		t.Fatalf("progress output %q", out)
	}
	if strings.Contains(out, "\n") || strings.Contains(out, "\x1b") {
		t.Errorf("progress must redraw one line in place, with no escape sequence: %q", out)
	}
	last := out[strings.LastIndex(strings.TrimSuffix(out, "\r"), "\r"):]
	if strings.TrimSpace(last) != "" || !strings.HasSuffix(out, "\r") {
		t.Errorf("the line is not erased at the end: %q", last)
	}
}

// TestProgressNotOnTerminal: nothing on standard error when it is not a
// terminal, or with --quiet, however long the run.
func TestProgressNotOnTerminal(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	store := filepath.Join("..", "..", "testdata", "store")
	for _, c := range []struct {
		terminal bool
		args     []string
	}{
		{false, []string{store}},
		{true, []string{"--quiet", store}},
	} {
		fastProgress(t, c.terminal)
		var stdout, stderr lockedBuffer
		Main(c.args, strings.NewReader(""), &stdout, &stderr)
		if stderr.String() != "" {
			t.Errorf("terminal %v, %v: stderr %q", c.terminal, c.args, stderr.String())
		}
	}
}
