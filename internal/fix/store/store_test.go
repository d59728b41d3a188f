package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/fix/store/storetest"
)

var (
	orig  = []byte("{\"a\":1}\n{\"b\":2}\n{\"c\":3}")
	edits = []edit.Edit{{Offset: 8, Length: 8}, {Offset: int64(len(orig)), Text: "\n"}}
)

func newBytes(t *testing.T) []byte {
	b, err := edit.Bytes(orig, edits)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func change(t *testing.T, path string) Change {
	return Change{Path: path, Orig: orig, New: newBytes(t), Edits: Records(orig, edits, nil)}
}

// setup makes a data root holding one transcript (an hour old) and a
// backup folder outside it.
func setup(t *testing.T) (bak, file string) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	proj := filepath.Join(root, "projects", "-p")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(proj, "0b6f3f0e-4d6b-4b0e-9a35-6c1f2b7d0c11.jsonl")
	writeOld(t, file, orig)
	return filepath.Join(t.TempDir(), "backups"), file
}

func writeOld(t *testing.T, file string, b []byte) {
	t.Helper()
	if err := os.WriteFile(file, b, 0o640); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func appendLine(p string, line []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestFailureAfterEachStep injects a failure after each step of a replace:
// the file holds the old bytes or the new ones, never a mix; whenever the
// new bytes are in place the run is listed and undo restores the old ones;
// when not, no run folder is left.
func TestFailureAfterEachStep(t *testing.T) {
	boom := errors.New("injected")
	for _, step := range []string{"read", "temp", "backup", "manifest", "restat", "rename", "verify"} {
		t.Run(step, func(t *testing.T) {
			bak, file := setup(t)
			s := &Store{Dir: bak, Step: func(name string) error {
				if name == step {
					return boom
				}
				return nil
			}}
			_, _, err := s.Write("fix", "test", []Change{change(t, file)})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			got := read(t, file)
			ms, _ := List(bak)
			switch {
			case bytes.Equal(got, orig):
				if len(ms) != 0 {
					t.Fatalf("a refused run left a backup run: %+v", ms)
				}
			case bytes.Equal(got, newBytes(t)):
				if len(ms) != 1 || len(ms[0].Files) != 1 {
					t.Fatalf("new bytes in place, but the run is not listed with the file: %+v", ms)
				}
				s.Step = nil
				if _, err := s.Undo(ms[0].ID); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(read(t, file), orig) {
					t.Fatal("undo did not restore")
				}
			default:
				t.Fatalf("file is a mix: %q", got)
			}
			ents, _ := os.ReadDir(filepath.Dir(file))
			if len(ents) != 1 {
				t.Fatalf("temp file left behind: %v", ents)
			}
		})
	}
}

// TestKillAtEachStep kills a run (a child process exits at once, running
// no deferred cleanup) after each step: the run is listed, or there is
// none; undo restores or says why not; a later run is not blocked.
func TestKillAtEachStep(t *testing.T) {
	if os.Getenv("CCVET_STORE_KILL") != "" {
		return // the child, run by killChild
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for _, step := range []string{"read", "temp", "backup", "manifest", "restat", "rename", "verify"} {
		t.Run(step, func(t *testing.T) {
			bak, file := setup(t)
			cmd := exec.Command(exe, "-test.run=^TestKillChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "CCVET_STORE_KILL="+step, "CCVET_STORE_FILE="+file, "CCVET_STORE_BAK="+bak)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 7 {
				t.Fatalf("child: %v\n%s", err, out)
			}
			got := read(t, file)
			if !bytes.Equal(got, orig) && !bytes.Equal(got, newBytes(t)) {
				t.Fatalf("file is a mix: %q", got)
			}
			ms, _ := List(bak)
			s := &Store{Dir: bak}
			if bytes.Equal(got, newBytes(t)) {
				if len(ms) != 1 || len(ms[0].Files) != 1 {
					t.Fatalf("new bytes without a listed run: %+v", ms)
				}
			}
			if len(ms) == 1 && len(ms[0].Files) == 1 {
				done, err := s.Undo(ms[0].ID)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(read(t, file), orig) {
					t.Fatalf("undo left %q (%v)", read(t, file), done)
				}
			}
			// A temp file the killed run left does not block the next run.
			if _, _, err := (&Store{Dir: bak, Force: true}).Write("fix", "test", []Change{change(t, file)}); err != nil {
				t.Fatalf("the next run: %v", err)
			}
			if !bytes.Equal(read(t, file), newBytes(t)) {
				t.Fatal("the next run did not write")
			}
		})
	}
}

// TestKillChild is the child of TestKillAtEachStep.
func TestKillChild(t *testing.T) {
	step := os.Getenv("CCVET_STORE_KILL")
	if step == "" {
		t.Skip("run by TestKillAtEachStep")
	}
	s := &Store{Dir: os.Getenv("CCVET_STORE_BAK"), Step: func(name string) error {
		if name == step {
			os.Exit(7)
		}
		return nil
	}}
	_, _, err := s.Write("fix", "test", []Change{change(t, os.Getenv("CCVET_STORE_FILE"))})
	t.Fatalf("not killed: %v", err)
}

// TestAppendDuringRun: lines a live writer appends between the plan and the
// rename are carried over; undo keeps them too, with a newline between the
// restored bytes (which end inside a line) and them.
func TestAppendDuringRun(t *testing.T) {
	for _, copyBackup := range []bool{false, true} {
		t.Run(fmt.Sprintf("copy=%v", copyBackup), func(t *testing.T) {
			bak, file := setup(t)
			tail := []byte("{\"d\":4}\n")
			s := &Store{Dir: bak, copyBackup: copyBackup}
			s.Appended = func(p string) {
				// orig ends without a newline: the writer writes one first.
				_ = appendLine(p, append([]byte("\n"), tail...))
			}
			c := change(t, file)
			c.Edits = nil
			c.New = []byte("{\"a\":1}\n{\"c\":3}")
			_, _, err := s.Write("fix", "test", []Change{c})
			if err != nil {
				t.Fatal(err)
			}
			want := append([]byte("{\"a\":1}\n{\"c\":3}\n"), tail...)
			if got := read(t, file); !bytes.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
			more := []byte("{\"e\":5}\n")
			_ = appendLine(file, more)
			s.Appended = nil
			s.Force = true // appended since: the time check would take it for a live session
			if _, err := s.Undo("last"); err != nil {
				t.Fatal(err)
			}
			wantBack := append(append(append(append([]byte{}, orig...), '\n'), tail...), more...)
			if back := read(t, file); !bytes.Equal(back, wantBack) {
				t.Fatalf("undo gave %q, want %q", back, wantBack)
			}
		})
	}
}

// TestLateWriteToOldFile: a writer that opened the file before the rename
// and writes after it (into the old inode) loses nothing, and its line
// comes before the lines appended to the new file since.
func TestLateWriteToOldFile(t *testing.T) {
	for _, copyBackup := range []bool{false, true} {
		t.Run(fmt.Sprintf("copy=%v", copyBackup), func(t *testing.T) {
			bak, file := setup(t)
			writeOld(t, file, append(append([]byte{}, orig...), '\n'))
			var held *os.File
			s := &Store{Dir: bak, copyBackup: copyBackup}
			s.Appended = func(p string) {
				held, _ = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			}
			s.Step = func(name string) error {
				if name == "rename" && held != nil {
					_, _ = held.Write([]byte("{\"late\":1}\n"))
					held.Close()
					held = nil
					_ = appendLine(file, []byte("{\"next\":2}\n"))
				}
				return nil
			}
			o := append(append([]byte{}, orig...), '\n')
			c := Change{Path: file, Orig: o, New: []byte("{\"a\":1}\n{\"c\":3}\n")}
			if _, _, err := s.Write("fix", "test", []Change{c}); err != nil {
				t.Fatal(err)
			}
			want := "{\"a\":1}\n{\"c\":3}\n{\"late\":1}\n{\"next\":2}\n"
			if got := read(t, file); string(got) != want {
				t.Fatalf("got %q, want %q", got, want)
			}
			s.Step, s.Appended, s.Force = nil, nil, true
			if _, err := s.Undo("last"); err != nil {
				t.Fatal(err)
			}
			if got := read(t, file); string(got) != string(o)+"{\"late\":1}\n{\"next\":2}\n" {
				t.Fatalf("undo gave %q", got)
			}
		})
	}
}

// appender appends one JSON line every 2 ms, opening and closing the file
// each time as Claude Code does, from when the temp file of path appears
// until stop is closed and at least min more lines were written.
type appender struct {
	path string
	n    int
	mu   sync.Mutex
	errs []error
	done chan struct{}
}

func startAppender(path string, stop <-chan struct{}, after, start int) *appender {
	a := &appender{path: path, n: start, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for {
			if _, err := os.Lstat(tempName(path)); err == nil {
				break
			}
			select {
			case <-stop:
				return
			default:
				time.Sleep(100 * time.Microsecond)
			}
		}
		stopped, extra := false, 0
		for !stopped || extra < after {
			a.mu.Lock()
			a.n++
			line := fmt.Sprintf("{\"type\":\"user\",\"n\":%d}\n", a.n)
			a.mu.Unlock()
			if err := appendLine(path, []byte(line)); err != nil {
				a.mu.Lock()
				a.errs = append(a.errs, err)
				a.mu.Unlock()
			}
			if stopped {
				extra++
			}
			select {
			case <-stop:
				stopped = true
			default:
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return a
}

// waitFor is a Store.Appended hook: the run waits there, between its
// backup and its rename, until the writer has written n lines in all (so
// that appends surely fall inside the run, whatever the speed).
func waitFor(a *appender, n int) func(string) {
	return func(string) {
		for {
			a.mu.Lock()
			k, errs := a.n, len(a.errs)
			a.mu.Unlock()
			if k >= n || errs > 0 {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
}

func (a *appender) lines() string {
	var b strings.Builder
	for i := 1; i <= a.n; i++ {
		fmt.Fprintf(&b, "{\"type\":\"user\",\"n\":%d}\n", i)
	}
	return b.String()
}

// TestLiveAppenderDuringWrite: a writer appending a line every 2 ms from
// the moment the temp file appears loses no line, and every line stays
// whole and in order, with the backup a hard link, a forced copy, or on
// another file system; then an undo under the same writer loses none.
func TestLiveAppenderDuringWrite(t *testing.T) {
	for _, mode := range []string{"link", "copy", "other-fs"} {
		t.Run(mode, func(t *testing.T) {
			bak, file := setup(t)
			s := &Store{Dir: bak, copyBackup: mode == "copy"}
			if mode == "other-fs" {
				s.Dir = filepath.Join(storetest.OtherFileSystem(t, filepath.Dir(file)), "backups")
			}
			o := append(append([]byte{}, orig...), '\n')
			writeOld(t, file, o)
			nw := []byte("{\"a\":1}\n{\"c\":3}\n")

			stop := make(chan struct{})
			a := startAppender(file, stop, 5, 0)
			s.Appended = waitFor(a, 3)
			_, w, err := s.Write("fix", "test", []Change{{Path: file, Orig: o, New: nw}})
			close(stop)
			<-a.done
			if err != nil {
				t.Fatal(err)
			}
			if len(a.errs) > 0 {
				t.Fatal(a.errs)
			}
			t.Logf("fix: %d lines appended in all, %d bytes carried over, %d rename(s)", a.n, w[0].Carried, w[0].Rounds)
			if got := read(t, file); string(got) != string(nw)+a.lines() {
				t.Fatalf("after the fix (%d lines appended, %d bytes carried):\n%q\nwant\n%q", a.n, w[0].Carried, got, string(nw)+a.lines())
			}

			// Undo under the same writer.
			s.Force = true
			stop = make(chan struct{})
			b := startAppender(file, stop, 5, a.n)
			s.Appended = waitFor(b, a.n+3)
			done, err := s.Undo("last")
			close(stop)
			<-b.done
			if err != nil {
				t.Fatal(err)
			}
			if got := read(t, file); string(got) != string(o)+b.lines() {
				t.Fatalf("after the undo (%v):\n%q\nwant\n%q", done, got, string(o)+b.lines())
			}
		})
	}
}

// TestUndoIdempotent: a second undo changes nothing and says so; the undo
// of a torn-line fix puts a newline between the restored fragment and the
// entry Claude Code appended since.
func TestUndoIdempotent(t *testing.T) {
	bak, file := setup(t)
	torn := []byte("{\"a\":1}\n{\"b\":2}\n{\"c\":")
	writeOld(t, file, torn)
	s := &Store{Dir: bak}
	if _, _, err := s.Write("fix", "test", []Change{{Path: file, Orig: torn, New: []byte("{\"a\":1}\n{\"b\":2}\n")}}); err != nil {
		t.Fatal(err)
	}
	_ = appendLine(file, []byte("{\"d\":4}\n"))
	s.Force = true // appended since: the time check would take it for a live session
	want := "{\"a\":1}\n{\"b\":2}\n{\"c\":\n{\"d\":4}\n"
	for k := 0; k < 2; k++ {
		done, err := s.Undo("last")
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, file); string(got) != want {
			t.Fatalf("undo %d gave %q, want %q", k+1, got, want)
		}
		if k == 1 && (len(done) != 1 || !strings.HasSuffix(done[0], "already restored")) {
			t.Fatalf("second undo says %v", done)
		}
	}
}

// TestLineBeingWritten: a file read while a process was writing a line to
// it ends inside that line, as a torn one does. The run, --force or not,
// must not cut that line as torn nor carry the rest of it over on a line of
// its own: it refuses the file while the writer holds it open, and when the
// bytes appended since complete the line.
func TestLineBeingWritten(t *testing.T) {
	head := []byte("{\"a\":1}\n{\"b\":2}\n")
	partial := append(append([]byte{}, head...), `{"c":{"d"`...)
	rest := []byte(`:4}}` + "\n")
	cut := Change{Path: "", Orig: partial, New: head} // the torn-line fix
	for _, tc := range []struct {
		name string
		hold bool // the writer still holds the file open
	}{{"writer still open", true}, {"line completed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			bak, file := setup(t)
			writeOld(t, file, partial)
			w, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if !tc.hold {
				if _, err := w.Write(rest); err != nil {
					t.Fatal(err)
				}
				w.Close()
			} else if open, known := writers(fileIDOf(t, file), ^uintptr(0)); !known || !open {
				t.Skip("this system does not tell which processes hold a file open")
			}
			c := cut
			c.Path = file
			_, _, err = (&Store{Dir: bak, Force: true}).Write("fix", "test", []Change{c})
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("want a refusal, got %v", err)
			}
			if tc.hold {
				if _, err := w.Write(rest); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := string(read(t, file)), string(partial)+string(rest); got != want {
				t.Fatalf("the file is %q, want %q", got, want)
			}
		})
	}
	// A torn line that the next append does not continue (an earlier
	// Claude Code glued its next entry onto it) is still cut, and the
	// entry carried over on its own line.
	bak, file := setup(t)
	writeOld(t, file, partial)
	if err := appendLine(file, []byte(`{"e":5}`+"\n")); err != nil {
		t.Fatal(err)
	}
	c := cut
	c.Path = file
	if _, _, err := (&Store{Dir: bak, Force: true}).Write("fix", "test", []Change{c}); err != nil {
		t.Fatal(err)
	}
	if got, want := string(read(t, file)), string(head)+`{"e":5}`+"\n"; got != want {
		t.Fatalf("the file is %q, want %q", got, want)
	}
}

func fileIDOf(t *testing.T, p string) fileID {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := idOf(st)
	return id
}

func TestRefusals(t *testing.T) {
	t.Run("changed", func(t *testing.T) {
		bak, file := setup(t)
		c := change(t, file)
		c.Orig = []byte("other")
		if _, _, err := (&Store{Dir: bak}).Write("fix", "test", []Change{c}); !errors.Is(err, ErrRefused) {
			t.Fatalf("a changed file must be refused: %v", err)
		}
		if _, err := os.Stat(bak); err == nil {
			if ents, _ := os.ReadDir(bak); len(ents) != 0 {
				t.Fatalf("a refused run left %v", ents)
			}
		}
	})
	t.Run("read-only", func(t *testing.T) {
		bak, file := setup(t)
		_ = os.Chmod(file, 0o444)
		if _, _, err := (&Store{Dir: bak}).Write("fix", "test", []Change{change(t, file)}); !errors.Is(err, ErrRefused) ||
			!strings.Contains(err.Error(), "read-only") {
			t.Fatalf("read-only: %v", err)
		}
		if _, _, err := (&Store{Dir: bak, Force: true}).Write("fix", "test", []Change{change(t, file)}); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(file); st.Mode().Perm() != 0o444 {
			t.Fatalf("mode %v", st.Mode())
		}
	})
	t.Run("recent", func(t *testing.T) {
		bak, file := setup(t)
		now := time.Now()
		_ = os.Chtimes(file, now, now)
		if _, _, err := (&Store{Dir: bak}).Write("fix", "test", []Change{change(t, file)}); !errors.Is(err, ErrRefused) {
			t.Fatalf("recent: %v", err)
		}
	})
	t.Run("live pid whatever the path", func(t *testing.T) {
		bak, file := setup(t)
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		sessions := filepath.Join(root, "sessions")
		_ = os.MkdirAll(sessions, 0o700)
		sid := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		rec := fmt.Sprintf(`{"pid":%d,"sessionId":%q}`, os.Getpid(), sid)
		_ = os.WriteFile(filepath.Join(sessions, fmt.Sprintf("%d.json", os.Getpid())), []byte(rec), 0o600)
		// Named through a link and with ".." too.
		link := filepath.Join(t.TempDir(), "l")
		_ = os.Symlink(filepath.Dir(file), link)
		for _, p := range []string{file, filepath.Join(link, filepath.Base(file)), filepath.Join(filepath.Dir(file), "..", "-p", filepath.Base(file))} {
			c := change(t, p)
			if _, _, err := (&Store{Dir: bak, Force: true}).Write("fix", "test", []Change{c}); !errors.Is(err, ErrRefused) ||
				!strings.Contains(err.Error(), "live") {
				t.Fatalf("%s: %v", p, err)
			}
		}
		if !bytes.Equal(read(t, file), orig) {
			t.Fatal("written")
		}
	})
	t.Run("backup folder through a link into the data root", func(t *testing.T) {
		_, file := setup(t)
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		link := filepath.Join(t.TempDir(), "l")
		_ = os.Symlink(root, link)
		if _, _, err := (&Store{Dir: filepath.Join(link, "bak")}).Write("fix", "test", []Change{change(t, file)}); !errors.Is(err, ErrRefused) ||
			!strings.Contains(err.Error(), "inside the Claude data folder") {
			t.Fatalf("%v", err)
		}
	})
}

// TestStaleTemp: a temp file a dead run left is removed; one a live run
// holds (locked) refuses, naming the command to remove it.
func TestStaleTemp(t *testing.T) {
	bak, file := setup(t)
	tmp := tempName(file)
	if err := os.WriteFile(tmp, []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	held, _ := os.Open(tmp)
	if !tryLock(held) {
		t.Skip("no advisory locks here")
	}
	_, _, err := (&Store{Dir: bak}).Write("fix", "test", []Change{change(t, file)})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "rm -- ") {
		t.Fatalf("held temp: %v", err)
	}
	held.Close()
	_, w, err := (&Store{Dir: bak}).Write("fix", "test", []Change{change(t, file)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w[0].Note, "removed") || !bytes.Equal(read(t, file), newBytes(t)) {
		t.Fatalf("stale temp: %+v", w)
	}
}

// TestUndoOnlyDataRootFiles: a hand-made manifest naming a file outside
// every data root is refused, and the file keeps its bytes and mode.
func TestUndoOnlyDataRootFiles(t *testing.T) {
	bak, _ := setup(t)
	victim := filepath.Join(t.TempDir(), "victim")
	_ = os.WriteFile(victim, []byte("keep"), 0o600)
	run := filepath.Join(bak, "20260101T000000Z")
	_ = os.MkdirAll(run, 0o700)
	_ = os.WriteFile(filepath.Join(run, "evil.orig"), []byte("evil"), 0o600)
	m := fmt.Sprintf(`{"id":"20260101T000000Z","tool":"ccvet","format":2,"ccvet_version":"x","created":"x","files":[{"path":%q,"backup":"evil.orig","size":4,"sha256_before":%q,"size_after":4,"sha256_after":%q,"mode":511,"edits":[]}]}`,
		victim, sum([]byte("evil")), sum([]byte("keep")))
	_ = os.WriteFile(filepath.Join(run, "manifest.json"), []byte(m), 0o600)
	if _, err := (&Store{Dir: bak, Force: true}).Undo("20260101T000000Z"); !errors.Is(err, ErrRefused) {
		t.Fatalf("undo of a file outside every data root: %v", err)
	}
	if st, _ := os.Stat(victim); string(read(t, victim)) != "keep" || st.Mode().Perm() != 0o600 {
		t.Fatal("victim written")
	}
}

// TestBackupStaysInRun: a file named with ".." or through links backs up
// inside its run folder.
func TestBackupStaysInRun(t *testing.T) {
	for _, p := range []string{"/a/b/../../../c.jsonl", "x/.../y.jsonl", "../../z.jsonl"} {
		rel := backupRel(p)
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			t.Errorf("%s: backup %s leaves the run folder", p, rel)
		}
	}
}

func TestBeginNeverReuses(t *testing.T) {
	bak, _ := setup(t)
	s := &Store{Dir: bak}
	a, _ := s.begin("fix", "t")
	b, _ := s.begin("fix", "t")
	if a.Dir() == b.Dir() {
		t.Fatal("two runs share a folder")
	}
}

// TestNewestRunOfOneSecond: runs begun in the same second are numbered
// -1, -2, ... -10, -11; List gives them in that order (not as strings, which
// put -10 before -2) and Find("") names the last one begun.
func TestNewestRunOfOneSecond(t *testing.T) {
	bak, file := setup(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Store{Dir: bak, Now: func() time.Time { return at }}
	var want []string
	for i := 0; i < 12; i++ {
		r, err := s.begin("fix", "t")
		if err != nil {
			t.Fatal(err)
		}
		r.m.Files = append(r.m.Files, FileRecord{Path: Real(file), State: "replaced"})
		if err := r.save(); err != nil {
			t.Fatal(err)
		}
		want = append(want, r.ID())
	}
	ms, err := List(bak)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.ID)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("List order %v, want the order begun %v", got, want)
	}
	m, err := s.Find("")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != want[len(want)-1] {
		t.Fatalf("the newest run is %s, want %s", m.ID, want[len(want)-1])
	}
}

func TestInside(t *testing.T) {
	d := t.TempDir()
	if !Inside(filepath.Join(d, "x", "y"), d) || Inside(d+"-other", d) || !Inside(d, d) {
		t.Fatal("Inside")
	}
	link := filepath.Join(t.TempDir(), "l")
	_ = os.Symlink(d, link)
	if !Inside(filepath.Join(link, "not", "yet"), d) {
		t.Fatal("Inside does not resolve a link above a folder not made yet")
	}
}

// TestUndoOlderManifest: a run recorded by an earlier ccvet (no tool,
// kind or state; size_after and its hash counting the carried bytes) is
// undone too.
func TestUndoOlderManifest(t *testing.T) {
	bak, file := setup(t)
	nw := []byte("{\"a\":1}\n{\"c\":3}\n")
	carried := []byte("{\"d\":4}\n")
	after := append(append([]byte{}, nw...), carried...)
	writeOld(t, file, after)
	id := "20250101T000000Z"
	run := filepath.Join(bak, id)
	rel := backupRel(file)
	_ = os.MkdirAll(filepath.Dir(filepath.Join(run, rel)), 0o700)
	_ = os.WriteFile(filepath.Join(run, rel+".orig"), orig, 0o600)
	m := fmt.Sprintf(`{"id":%q,"ccvet_version":"0.9.0","created":"2025-01-01T00:00:00Z","files":[{"path":%q,"backup":%q,"size":%d,"sha256_before":%q,"size_after":%d,"sha256_after":%q,"carried_bytes":%d,"mode":416,"edits":[]}]}`,
		id, Real(file), rel+".orig", len(orig), sum(orig), len(after), sum(after), len(carried))
	_ = os.WriteFile(filepath.Join(run, "manifest.json"), []byte(m), 0o600)
	if _, err := (&Store{Dir: bak}).Undo(id); err != nil {
		t.Fatal(err)
	}
	if got := read(t, file); string(got) != string(orig)+"\n"+string(carried) {
		t.Fatalf("undo gave %q", got)
	}
}

// TestDataRootFolders: a file of todos/, file-history/ or paste-cache/
// beside projects/ belongs to that data root (redact writes them); the same
// names elsewhere do not make a data root.
func TestDataRootFolders(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"projects/-p", "todos", "file-history/s1", "paste-cache", "other"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	loose := t.TempDir()
	if err := os.MkdirAll(filepath.Join(loose, "todos"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := Real(root)
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(root, "projects", "-p", "s.jsonl"), want},
		{filepath.Join(root, "history.jsonl"), want},
		{filepath.Join(root, "todos", "s-agent-s.json"), want},
		{filepath.Join(root, "file-history", "s1", "abc@v2"), want},
		{filepath.Join(root, "paste-cache", "h.txt"), want},
		{filepath.Join(root, "other", "x.json"), ""},
		{filepath.Join(loose, "todos", "x.json"), ""},
	} {
		if err := os.WriteFile(c.path, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := DataRoot(c.path); got != c.want {
			t.Errorf("DataRoot(%s) = %q, want %q", c.path, got, c.want)
		}
	}
}

// TestLargeChangeUncopied: the replace reads the file and the planned
// bytes a chunk at a time and never copies or changes the caller's new
// bytes: a file of a few MiB whose planned bytes differ from the file
// past the first chunk is refused as changed; planned bytes with spare
// room after them are written as they are, the line appended meanwhile
// carried over after them, and the room left untouched.
func TestLargeChangeUncopied(t *testing.T) {
	bak, file := setup(t)
	var b bytes.Buffer
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "{\"type\":\"user\",\"n\":%d}\n", i)
	}
	big := b.Bytes()
	writeOld(t, file, big)
	s := &Store{Dir: bak}
	planned := bytes.Clone(big)
	planned[len(planned)-5] = '9' // the file no longer starts with what was planned from
	if _, _, err := s.Write("fix", "test", []Change{{Path: file, Orig: planned, New: big[:100]}}); !errors.Is(err, ErrRefused) ||
		!strings.Contains(err.Error(), "changed since it was planned") {
		t.Fatalf("planned bytes that differ past the first MiB: %v", err)
	}
	if got := read(t, file); !bytes.Equal(got, big) {
		t.Fatal("a refused run changed the file")
	}

	k := bytes.IndexByte(big[len(big)/2:], '\n') + len(big)/2 + 1
	room := make([]byte, len(big)+4096) // the new bytes, then spare room
	n := copy(room, big[:k])
	n += copy(room[n:], big[k+1+bytes.IndexByte(big[k:], '\n'):]) // one line left out
	for i := n; i < len(room); i++ {
		room[i] = 'Z'
	}
	nw := room[:n]
	want := bytes.Clone(nw)
	tail := []byte("{\"type\":\"user\",\"n\":\"late\"}\n")
	s.Appended = func(p string) { _ = appendLine(p, tail) }
	if _, w, err := s.Write("fix", "test", []Change{{Path: file, Orig: big, New: nw}}); err != nil || w[0].Carried != int64(len(tail)) {
		t.Fatalf("write: %v %+v", err, w)
	}
	if got := read(t, file); !bytes.Equal(got, append(bytes.Clone(want), tail...)) {
		t.Fatal("the file is not the new bytes and the line appended meanwhile")
	}
	if !bytes.Equal(nw, want) || bytes.Count(room[n:], []byte{'Z'}) != len(room)-n {
		t.Fatal("the replace changed the caller's bytes or wrote into the room after them")
	}
}
