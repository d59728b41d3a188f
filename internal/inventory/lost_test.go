package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A prompt without a timestamp dates nothing: the session is lost, but
// not for cleanup (its time is unknown, not 1970).
func TestLostWithoutTime(t *testing.T) {
	root := t.TempDir()
	id := "00000001-0000-4000-8000-000000000001"
	line := `{"display":"no time","pastedContents":{},"project":"/p","sessionId":"` + id + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) != 1 || r.Lost[0].Cause != CauseUnknown || r.Lost[0].LastSeen != "" || r.Lost[0].Prompts != 1 || r.Lost[0].Project != "-p" {
		t.Errorf("lost: %+v", r.Lost)
	}
	l, err := Find(root, id, Options{})
	if err != nil || l == nil || l.Prompts != 1 {
		t.Errorf("Find: %+v %v", l, err)
	}
}

// A transcript that is a symbolic link is not followed, but it is there:
// its session is not lost (no history-without-transcript, no
// session-folder-without-transcript, nothing under lost), and the link is
// reported as unreadable, as a project folder that is a link is.
func TestLinkedTranscriptNotLost(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	id := "00000002-0000-4000-8000-000000000002"
	dir := filepath.Join(root, "projects", "-p")
	if err := os.MkdirAll(filepath.Join(dir, id, "tool-results"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string]string{
		filepath.Join(outside, id+".jsonl"):              `{"type":"user","sessionId":"` + id + `","cwd":"/p","message":{"role":"user","content":"hi"}}` + "\n",
		filepath.Join(dir, id, "tool-results", "r1.txt"): "out",
		filepath.Join(root, "history.jsonl"):             `{"display":"hi","pastedContents":{},"timestamp":1700000000000,"project":"/p","sessionId":"` + id + `"}` + "\n",
		filepath.Join(outside, "other", "x.jsonl"):       "",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, id+".jsonl"), filepath.Join(dir, id+".jsonl")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "other"), filepath.Join(root, "projects", "-linked")); err != nil {
		t.Fatal(err)
	}
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) != 0 {
		t.Errorf("lost: %+v, want none (the transcript is there, as a link)", r.Lost)
	}
	got := map[string]string{}
	for _, p := range r.Problems {
		got[p.Path] = p.Kind
	}
	want := map[string]string{
		"projects/-p/" + id + ".jsonl": KindUnreadable,
		"projects/-linked":             KindUnreadable,
	}
	if len(got) != len(want) || got["projects/-p/"+id+".jsonl"] != KindUnreadable || got["projects/-linked"] != KindUnreadable {
		t.Errorf("problems %v, want %v", r.Problems, want)
	}
	for _, s := range r.Sessions {
		if s.SessionID == id {
			t.Errorf("the linked transcript was read: %+v", s)
		}
	}
}

// A session with traces but no transcript, in a store where a project
// folder is a link (not followed), is lost for a cause that says so
// (not-read, naming the folder), not for an unknown one; with no such
// folder, unknown.
func TestLostWhereAFolderIsNotRead(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	id := "00000003-0000-4000-8000-000000000003"
	for p, data := range map[string]string{
		filepath.Join(outside, id+".jsonl"):                            `{"type":"user","sessionId":"` + id + `","cwd":"/q","message":{"role":"user","content":"hi"}}` + "\n",
		filepath.Join(root, "file-history", id, "0123456789abcdef@v1"): "old text",
		filepath.Join(root, "projects", "-p", "x.txt"):                 "",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r, err := Build(root, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) != 1 || r.Lost[0].Cause != CauseUnknown {
		t.Fatalf("lost without a folder unread: %+v, want one, cause unknown", r.Lost)
	}
	if err := os.Symlink(outside, filepath.Join(root, "projects", "-q")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	r, err = Build(root, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) != 1 || r.Lost[0].Cause != CauseNotRead || !strings.Contains(r.Lost[0].CauseDetail, "projects/-q") {
		t.Errorf("lost: %+v, want one, cause not-read naming projects/-q", r.Lost)
	}
}

// A transcript a writer appends to while it is read is read up to the size
// it had when opened: what comes after is not counted (a writer faster
// than the reader would otherwise keep it reading forever).
func TestGrowingTranscriptReadToSizeAtOpen(t *testing.T) {
	root := t.TempDir()
	id := "00000003-0000-4000-8000-000000000003"
	p := filepath.Join(root, "projects", "-p", id+".jsonl")
	line := `{"type":"user","sessionId":"` + id + `","cwd":"/p","uuid":"u","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	testAfterOpen = func(string) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for range 3 {
			if _, err := f.WriteString(line); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer func() { testAfterOpen = func(string) {} }()
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 1 || r.Sessions[0].Entries != 1 {
		t.Errorf("sessions %+v: want one session of 1 entry (the lines appended after the open not read)", r.Sessions)
	}
}

// A very long cleanupPeriodDays (users set one to keep transcripts
// forever) is valid and deletes nothing: a lost session is not put down to
// cleanup (200000 days overflowed a time.Duration and made every loss
// "cleanup"), and a period past a million days is not called invalid.
func TestLongCleanupPeriod(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, period := range []string{"200000", "100000000"} {
		root := t.TempDir()
		id := "00000004-0000-4000-8000-000000000004"
		files := map[string]string{
			"settings.json": `{"cleanupPeriodDays": ` + period + `}`,
			".last-cleanup": "2026-11-30T00:00:00.000Z",
			"history.jsonl": `{"display":"hi","pastedContents":{},"timestamp":1764400000000,"project":"/p","sessionId":"` + id + `"}` + "\n",
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := Build(root, Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Cleanup.Enabled || fmt.Sprint(r.Cleanup.PeriodDays) != period {
			t.Errorf("cleanupPeriodDays %s: %+v, want enabled with that period", period, r.Cleanup)
		}
		if len(r.Lost) != 1 || r.Lost[0].Cause == CauseCleanup {
			t.Errorf("cleanupPeriodDays %s: lost %+v, want one, not put down to cleanup", period, r.Lost)
		}
		for _, p := range r.Problems {
			if strings.Contains(p.Message, "deleted by cleanup") {
				t.Errorf("cleanupPeriodDays %s: %s", period, p.Message)
			}
		}
	}
}

// A backup folder beside projects/ is read by its name, not as a pattern:
// one named with '[' is found too.
func TestBackupNamedWithBracket(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"projects.bak[1]", "projects.bak*"} {
		p := filepath.Join(root, name, "-p", "00000005-0000-4000-8000-000000000005.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Skipf("no such folder name here: %v", err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Backups) != "[{projects.bak* 1} {projects.bak[1] 1}]" {
		t.Errorf("backups %v, want projects.bak* and projects.bak[1], 1 transcript each", r.Backups)
	}
}

// A pid file named by a number past the range of process ids (and without
// a pid of its own) is not asked about: kill(2) would take 4294967297 for
// process 1, and 4294967295 for -1 (every process).
func TestPidFileNameOutOfRange(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"4294967297", "4294967295"} {
		data := `{"sessionId":"00000006-0000-4000-8000-00000000000` + name[len(name)-1:] + `","cwd":"/p"}`
		if err := os.WriteFile(filepath.Join(root, "sessions", name+".json"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var asked []int
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), PidLive: func(pid int) bool {
		asked = append(asked, pid)
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 0 {
		t.Errorf("asked whether processes %v run", asked)
	}
	if len(r.Lost) != 2 {
		t.Errorf("lost %+v, want the 2 sessions (no live process names them)", r.Lost)
	}
}

// A pid file that is a symbolic link is not followed, and said so; so is a
// sessions/ folder that is one.
func TestPidFileLinkReported(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "1.json")
	if err := os.WriteFile(target, []byte(`{"pid":1,"sessionId":"00000007-0000-4000-8000-000000000007","cwd":"/p"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, "sessions", "1.json")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	live := func(int) bool { t.Error("a linked pid file was read"); return false }
	r, err := Build(root, Options{Now: now, PidLive: live})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || r.Problems[0].Path != "sessions/1.json" || r.Problems[0].Kind != KindUnreadable || len(r.Lost) != 0 {
		t.Errorf("problems %+v, lost %+v: want the link reported, nothing lost", r.Problems, r.Lost)
	}
	root2 := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "sessions"), filepath.Join(root2, "sessions")); err != nil {
		t.Fatal(err)
	}
	if r, err = Build(root2, Options{Now: now, PidLive: live}); err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || r.Problems[0].Path != "sessions" || r.Problems[0].Kind != KindUnreadable {
		t.Errorf("problems %+v: want the linked sessions/ reported", r.Problems)
	}
}
