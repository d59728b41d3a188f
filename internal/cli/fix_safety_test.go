package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/fix/store/storetest"
)

// secondSession copies fixHome's broken transcript into another project
// folder under another session id, an hour old, and returns its path.
func secondSession(t *testing.T, root, file string) string {
	t.Helper()
	proj := filepath.Join(root, "projects", "-work-other")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	p := filepath.Join(proj, "c1e2d3f4-0000-4000-8000-000000000002.jsonl")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(p, old, old)
	return p
}

var undoLine = regexp.MustCompile(`(?m)^undo: (ccvet fix --undo (\S+) --backup-dir (.+))$`)

// TestFixUndoByID: with two runs, `--undo ID` (with a space) and
// `--undo=ID` each undo the run named, the printed undo command works as
// printed (its --backup-dir included), and a PATH after --undo is an
// error, never ignored.
func TestFixUndoByID(t *testing.T) {
	root, file1 := fixHome(t)
	file2 := secondSession(t, root, file1)
	orig1, _ := os.ReadFile(file1)
	orig2, _ := os.ReadFile(file2)
	bak := filepath.Join(t.TempDir(), "my backups")

	out1, errOut, code := run(t, "", "fix", "--write", "--backup-dir", bak, file1)
	m1 := undoLine.FindStringSubmatch(out1)
	if code != ExitOK || m1 == nil {
		t.Fatalf("first run: %d\n%s%s", code, out1, errOut)
	}
	out2, errOut, code := run(t, "", "fix", "--write", "--backup-dir", bak, file2)
	m2 := undoLine.FindStringSubmatch(out2)
	if code != ExitOK || m2 == nil || m2[2] == m1[2] {
		t.Fatalf("second run: %d\n%s%s", code, out2, errOut)
	}
	fixed1, _ := os.ReadFile(file1)
	fixed2, _ := os.ReadFile(file2)
	if bytes.Equal(fixed1, orig1) || bytes.Equal(fixed2, orig2) {
		t.Fatal("not fixed")
	}
	if m1[3] != "'"+bak+"'" {
		t.Fatalf("the undo command does not name the backup folder, quoted: %s", m1[1])
	}

	// A PATH after --undo ID is an error, and nothing is undone.
	if _, errOut, code := run(t, "", "fix", "--undo", m1[2], "--backup-dir", bak, file1); code != ExitUsage || !strings.Contains(errOut, "no PATH") {
		t.Fatalf("stray PATH: %d %s", code, errOut)
	}
	if _, errOut, code := run(t, "", "fix", "--undo", file1, "--backup-dir", bak); code != ExitUsage || !strings.Contains(errOut, "not a path") {
		t.Fatalf("--undo PATH: %d %s", code, errOut)
	}
	if now, _ := os.ReadFile(file1); !bytes.Equal(now, fixed1) {
		t.Fatal("a refused undo wrote")
	}

	// The first run's printed command, as printed (shell words).
	args := shellSplit(t, m1[1])[1:]
	out, errOut, code := run(t, "", args...)
	if code != ExitOK || !strings.Contains(out, "restored") {
		t.Fatalf("%s: %d %s%s", m1[1], code, out, errOut)
	}
	if now, _ := os.ReadFile(file1); !bytes.Equal(now, orig1) {
		t.Fatal("--undo ID1 did not restore the first file")
	}
	if now, _ := os.ReadFile(file2); !bytes.Equal(now, fixed2) {
		t.Fatal("--undo ID1 touched the second file")
	}
	// Again: already restored, nothing changes.
	out, _, code = run(t, "", args...)
	if code != ExitOK || !strings.Contains(out, "already restored") {
		t.Fatalf("second undo: %d %s", code, out)
	}
	if now, _ := os.ReadFile(file1); !bytes.Equal(now, orig1) {
		t.Fatal("the second undo changed the file")
	}

	if out, errOut, code := run(t, "", "fix", "--undo="+m2[2], "--backup-dir", bak); code != ExitOK || !strings.Contains(out, "restored") {
		t.Fatalf("--undo=ID2: %d %s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(file2); !bytes.Equal(now, orig2) {
		t.Fatal("--undo=ID2 did not restore the second file")
	}
	out, _, _ = run(t, "", "fix", "--list-backups", "--backup-dir", bak)
	if strings.Count(out, "(restored by --undo)") != 2 {
		t.Fatalf("list:\n%s", out)
	}
}

// shellSplit splits a command line printed for a POSIX shell (words, and
// single-quoted words with '\” inside).
func shellSplit(t *testing.T, s string) []string {
	var out []string
	var cur strings.Builder
	in, any := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'':
			in, any = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			any = true
		case c == ' ':
			if any || cur.Len() > 0 {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteByte(c)
		}
	}
	if in {
		t.Fatalf("unterminated quote in %s", s)
	}
	if any || cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// TestFixLiveSessionWhateverPath: a sessions/<pid>.json naming the session
// with a running pid refuses fix whether PATH is the data root, projects/,
// the project folder, the transcript or the session id, with and without
// --force; undo of a run is refused the same way.
func TestFixLiveSessionWhateverPath(t *testing.T) {
	root, file := fixHome(t)
	orig, _ := os.ReadFile(file)
	bak := filepath.Join(t.TempDir(), "bak")
	out, errOut, code := run(t, "", "fix", "--write", "--backup-dir", bak, file)
	m := undoLine.FindStringSubmatch(out)
	if code != ExitOK || m == nil {
		t.Fatalf("%d %s%s", code, out, errOut)
	}
	if _, _, code := run(t, "", "fix", "--undo", m[2], "--backup-dir", bak); code != ExitOK {
		t.Fatal("undo")
	}
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(file, old, old)

	sessions := filepath.Join(root, "sessions")
	_ = os.MkdirAll(sessions, 0o700)
	pid := os.Getpid()
	rec := `{"pid":` + strconv.Itoa(pid) + `,"sessionId":"b7936c10-4935-441c-837c-c1f33cafec2d","cwd":"/work/demo"}`
	pidFile := filepath.Join(sessions, strconv.Itoa(pid)+".json")
	_ = os.WriteFile(pidFile, []byte(rec), 0o600)
	for _, p := range []string{root, filepath.Join(root, "projects"), filepath.Dir(file), file, "b7936c10-4935-441c-837c-c1f33cafec2d"} {
		for _, force := range []bool{false, true} {
			args := []string{"fix", "--write", "--backup-dir", bak, "--root", root, p}
			if force {
				args = append(args, "--force")
			}
			_, errOut, code := run(t, "", args...)
			if code != ExitRefused || !strings.Contains(errOut, "is live") {
				t.Errorf("%v: %d %s", args, code, errOut)
			}
			if now, _ := os.ReadFile(file); !bytes.Equal(now, orig) {
				t.Fatalf("%v wrote a live session's transcript", args)
			}
		}
	}
	// No run was left by the refusals.
	out, _, _ = run(t, "", "fix", "--list-backups", "--backup-dir", bak)
	if strings.Count(out, "file(s)") != 1 {
		t.Fatalf("refused runs left backup runs:\n%s", out)
	}

	// Undo is gated too: fix with the pid file gone, then undo with it back.
	_ = os.Remove(pidFile)
	out, _, code = run(t, "", "fix", "--write", "--backup-dir", bak, file)
	if m = undoLine.FindStringSubmatch(out); code != ExitOK || m == nil {
		t.Fatalf("fix: %d %s", code, out)
	}
	fixed, _ := os.ReadFile(file)
	_ = os.WriteFile(pidFile, []byte(rec), 0o600)
	if _, errOut, code := run(t, "", "fix", "--undo", m[2], "--backup-dir", bak, "--force"); code != ExitRefused || !strings.Contains(errOut, "is live") {
		t.Fatalf("undo of a live session: %d %s", code, errOut)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, fixed) {
		t.Fatal("undo wrote a live session's transcript")
	}
}

// cliAppender appends one JSON line every 2 ms (open, append, close) from
// when the temp file of path appears, or kick is closed (a run so quick
// that the appender missed its temp file), until stop is closed.
type cliAppender struct {
	mu   sync.Mutex
	n    int
	err  error
	done chan struct{}
}

func appendDuring(path string, start int, stop, kick <-chan struct{}) *cliAppender {
	a := &cliAppender{n: start, done: make(chan struct{})}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".ccvet-fix.tmp")
	go func() {
		defer close(a.done)
	wait:
		for {
			if _, err := os.Lstat(tmp); err == nil {
				break
			}
			select {
			case <-stop:
				return
			case <-kick:
				break wait
			default:
				time.Sleep(100 * time.Microsecond)
			}
		}
		for {
			select {
			case <-stop:
				return
			default:
			}
			a.mu.Lock()
			a.n++
			line := fmt.Sprintf("{\"type\":\"x-appended\",\"n\":%d}\n", a.n)
			a.mu.Unlock()
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				_, err = f.WriteString(line)
				f.Close()
			}
			if err != nil {
				a.mu.Lock()
				a.err = err
				a.mu.Unlock()
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return a
}

func appendedLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "{\"type\":\"x-appended\",\"n\":%d}\n", i)
	}
	return b.String()
}

// TestFixWriteAndUndoUnderAppender: a writer appending every 2 ms from the
// moment the temp file appears loses no line during `fix --write` and
// during `--undo ID`, with the backup folder on the same file system (hard
// link) and on another one (copy); every line whole and in order.
func TestFixWriteAndUndoUnderAppender(t *testing.T) {
	for _, where := range []string{"same", "other"} {
		t.Run(where, func(t *testing.T) {
			_, file := fixHome(t)
			orig, _ := os.ReadFile(file)
			bak := filepath.Join(t.TempDir(), "bak")
			if where == "other" {
				bak = filepath.Join(storetest.OtherFileSystem(t, file), "bak")
			}
			stop := make(chan struct{})
			kick := make(chan struct{})
			a := appendDuring(file, 0, stop, kick)
			out, errOut, code := run(t, "", "fix", "--write", "--backup-dir", bak, file)
			// A few more lines after the run, into the new file (under load
			// the appender may have missed the run's temp file: kick it).
			close(kick)
			a.mu.Lock()
			n0 := a.n
			a.mu.Unlock()
			deadline := time.Now().Add(time.Minute)
			for {
				a.mu.Lock()
				n, err := a.n, a.err
				a.mu.Unlock()
				if n >= n0+3 || err != nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the appender appended %d lines in a minute after the fix", n-n0)
				}
				time.Sleep(time.Millisecond)
			}
			close(stop)
			<-a.done
			if a.err != nil {
				t.Fatal(a.err)
			}
			m := undoLine.FindStringSubmatch(out)
			if code != ExitOK || m == nil {
				t.Fatalf("fix: %d\n%s%s", code, out, errOut)
			}
			got, _ := os.ReadFile(file)
			tail := appendedLines(1, a.n)
			if !bytes.HasSuffix(got, []byte(tail)) || len(got)-len(tail) != len(orig) || bytes.Equal(got[:len(orig)], orig) {
				t.Fatalf("after the fix (%d lines appended):\n%s", a.n, got[min(len(got), len(orig)-200):])
			}
			t.Logf("%s: %d lines appended during and after the fix; %s", where, a.n, strings.TrimSpace(strings.Split(out, "\n")[len(strings.Split(out, "\n"))-3]))

			stop = make(chan struct{})
			b := appendDuring(file, a.n, stop, nil)
			out, errOut, code = run(t, "", "fix", "--undo", m[2], "--backup-dir", bak, "--force")
			close(stop)
			<-b.done
			if code != ExitOK || b.err != nil {
				t.Fatalf("undo: %d %v\n%s%s", code, b.err, out, errOut)
			}
			got, _ = os.ReadFile(file)
			if want := string(orig) + appendedLines(1, b.n); string(got) != want {
				t.Fatalf("after the undo (%d lines in all): %s\n%s", b.n, out, got[min(len(got), len(orig)-200):])
			}
		})
	}
}

// TestFixOutput: paths as lint prints them, one line per finding, the
// edits only with -v or --diff.
func TestFixOutput(t *testing.T) {
	root, file := fixHome(t)
	out, _, _ := run(t, "", "fix", root)
	rel := filepath.ToSlash(filepath.Join(root, "projects", "-work-demo", filepath.Base(file)))
	lint, _, _ := run(t, "", "--no-snippet", root)
	if !strings.Contains(out, rel+":4: [safe] orphan-parent") || !strings.Contains(lint, rel+":4:") {
		t.Fatalf("fix and lint name the file differently:\n%s\n%s", out, lint)
	}
	if strings.Contains(out, "@2062") {
		t.Fatalf("edits listed without -v:\n%s", out)
	}
	out, _, _ = run(t, "", "fix", "-v", root)
	if !strings.Contains(out, "    @2062 replace") {
		t.Fatalf("-v lists no edit:\n%s", out)
	}
	// A session id, looked up under --root (issue 24).
	out, errOut, code := run(t, "", "fix", "--root", root, "b7936c10-4935-441c-837c-c1f33cafec2d")
	if code != ExitFindings || !strings.Contains(out, "[safe] orphan-parent") {
		t.Fatalf("fix --root ROOT SESSION_ID: %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := run(t, "", "fix", "--root", root, "00000000-0000-4000-8000-000000000000"); code != ExitUsage ||
		!strings.Contains(errOut, "no transcript of session") {
		t.Fatalf("unknown session: %d %s", code, errOut)
	}
}
