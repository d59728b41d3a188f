package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/layout"
)

// sessionFixtures holds hand-made data roots for ccvet sessions
// (testdata/sessions/README.md).
const sessionFixtures = "testdata/sessions"

// sessionsNow is the --now of every test: fixtures are given mtimes
// relative to it, so cleanup is judged the same on any day.
var sessionsNow = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// sessionRoot copies a fixture root to a temporary folder and sets every
// file's mtime to 2026-11-20T10:00Z (git does not keep mtimes).
func sessionRoot(t *testing.T, name string) string {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dst := filepath.Join(t.TempDir(), name)
	src := filepath.Join(sessionFixtures, name)
	stamp := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(to, stamp, stamp)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func sessionsJSON(t *testing.T, args ...string) *inventory.Report {
	t.Helper()
	args = append([]string{"sessions", "--format", "json", "--now", sessionsNow.Format(time.RFC3339)}, args...)
	stdout, stderr, code := run(t, "", args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var r inventory.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stdout)
	}
	return &r
}

func sessionByID(t *testing.T, r *inventory.Report, id string) inventory.Session {
	t.Helper()
	for _, s := range r.Sessions {
		if s.SessionID == id {
			return s
		}
	}
	t.Fatalf("no session %s in the report", id)
	return inventory.Session{}
}

func fixtureID(n int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n) }

func problemsOf(r *inventory.Report, kind string) []inventory.Problem {
	var out []inventory.Problem
	for _, p := range r.Problems {
		if p.Kind == kind {
			out = append(out, p)
		}
	}
	return out
}

// A healthy store: two listed sessions, a subagent, a history prompt and a
// pid file that all resolve, a valid cleanupPeriodDays: nothing odd.
func TestSessionsClean(t *testing.T) {
	root := sessionRoot(t, "clean")
	r := sessionsJSON(t, root)
	if len(r.Problems) != 0 {
		t.Errorf("problems on a clean store: %+v", r.Problems)
	}
	if r.Summary != (inventory.Summary{Sessions: 2, Listed: 2}) {
		t.Errorf("summary %+v", r.Summary)
	}
	if r.Cleanup.PeriodDays != 30 || r.Cleanup.Source != "settings.json" || !r.Cleanup.Enabled {
		t.Errorf("cleanup %+v", r.Cleanup)
	}
	s := sessionByID(t, r, fixtureID(1))
	if s.Project != "-home-dev-app" || s.Cwd != "/home/dev/app" || s.FirstPrompt != "Prompt of session 1" ||
		s.Subagents != 1 || strings.Join(s.Versions, ",") != "2.1.330" || s.LastActivity != "2026-11-20T10:00:05Z" ||
		s.Entries != 3 || s.BadLines != 0 || !s.Picker.Listed || s.Picker.Label != "Prompt of session 1" ||
		len(s.Picker.Hidden) != 0 || len(s.Picker.Notes) != 0 || s.CleanupDue {
		t.Errorf("session 1: %+v", s)
	}
	if st, _ := os.Stat(filepath.Join(root, filepath.FromSlash(s.Path))); st == nil || st.Size() != s.Size {
		t.Errorf("session 1: path %s, size %d", s.Path, s.Size)
	}
	if s := sessionByID(t, r, fixtureID(2)); s.Picker.Label != "Named session" || strings.Join(s.Versions, ",") != "2.1.110" {
		t.Errorf("session 2: %+v", s)
	}
}

// Each reason the /resume picker leaves a session out, and the damage it
// does not mind.
func TestSessionsHidden(t *testing.T) {
	r := sessionsJSON(t, sessionRoot(t, "hidden"))
	cases := []struct {
		id       string
		code     string // "" = listed
		versions string
	}{
		{fixtureID(10), inventory.ReasonSDK, "2.1.110,2.1.330"},
		{fixtureID(11), inventory.ReasonSidechain, "2.1.110,2.1.330"},
		{fixtureID(12), inventory.ReasonTeam, "2.1.110,2.1.330"},
		{fixtureID(13), inventory.ReasonKind, "2.1.110,2.1.330"},
		{fixtureID(14), inventory.ReasonLoop, "2.1.110,2.1.330"},
		{fixtureID(15), inventory.ReasonNothingSaid, "2.1.330"},
		{fixtureID(16), inventory.ReasonContinued, "2.1.330"},
		{"backup-copy", inventory.ReasonName, "2.1.110,2.1.330"},
		{fixtureID(17), "", ""}, // the session 16 continued in
		{fixtureID(19), "", ""}, // first line unreadable: still listed
		{fixtureID(20), "", ""}, // no cwd: still listed
		{fixtureID(21), "", ""}, // only a title record: listed by its title
		{fixtureID(22), "", ""}, // empty file: listed as "(session)"
	}
	for _, c := range cases {
		s := sessionByID(t, r, c.id)
		if c.code == "" {
			if !s.Picker.Listed || len(s.Picker.Hidden) != 0 {
				t.Errorf("%s: want listed, got %+v", c.id, s.Picker)
			}
			continue
		}
		if s.Picker.Listed || len(s.Picker.Hidden) != 1 || s.Picker.Hidden[0].Code != c.code ||
			strings.Join(s.Picker.Hidden[0].Versions, ",") != c.versions || s.Picker.Hidden[0].Detail == "" {
			t.Errorf("%s: want hidden by %s [%s], got %+v", c.id, c.code, c.versions, s.Picker)
		}
		if len(problemsOf(r, inventory.KindHiddenFromPicker)) != 8 {
			t.Errorf("want 8 %s problems, got %+v", inventory.KindHiddenFromPicker, r.Problems)
		}
	}
	if s := sessionByID(t, r, fixtureID(21)); s.Picker.Label != "Only a title" {
		t.Errorf("title-only session: label %q", s.Picker.Label)
	}
	if s := sessionByID(t, r, fixtureID(22)); s.Picker.Label != "(session)" || s.Size != 0 {
		t.Errorf("empty session: %+v", s)
	}
	if s := sessionByID(t, r, fixtureID(19)); s.BadLines != 1 || s.FirstPrompt != "Prompt of session 19" {
		t.Errorf("session with a bad first line: %+v", s)
	}
	if s := sessionByID(t, r, fixtureID(14)); s.FirstPrompt != "/loop 5m check the build" {
		t.Errorf("loop session: first prompt %q", s.FirstPrompt)
	}
}

// The picker reads 64 KiB at each end: a title in the middle is not seen,
// a sidechain flag past the head does not hide the session.
func TestSessionsWindow(t *testing.T) {
	root := sessionRoot(t, "clean")
	p := filepath.Join(root, "projects", "-home-dev-app", fixtureID(1)+".jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pad := `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-20T10:00:04.000Z","sessionId":"` + fixtureID(1) + `","content":"` + strings.Repeat("x", 1000) + "\"}\n"
	var out strings.Builder
	out.Write(b)
	for range 80 {
		out.WriteString(pad)
	}
	out.WriteString(`{"type":"custom-title","customTitle":"Lost title","sessionId":"` + fixtureID(1) + "\"}\n")
	out.WriteString(`{"parentUuid":null,"isSidechain":true,"type":"user","message":{"role":"user","content":"late"},"uuid":"x","timestamp":"2026-11-20T10:00:06.000Z","sessionId":"` + fixtureID(1) + "\"}\n")
	for range 80 {
		out.WriteString(pad)
	}
	if err := os.WriteFile(p, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := sessionByID(t, sessionsJSON(t, root), fixtureID(1))
	if !s.Picker.Listed || len(s.Picker.Notes) != 1 || s.Picker.Notes[0].Code != inventory.NoteTitleOutside {
		t.Errorf("title outside the window: %+v", s.Picker)
	}
	if s.Picker.Label != "Prompt of session 1" {
		t.Errorf("label %q, want the first prompt", s.Picker.Label)
	}
}

func TestSessionsPidFiles(t *testing.T) {
	root := sessionRoot(t, "pidfile")
	// A live process (this test) naming a session not written yet.
	live := os.Getpid()
	body := fmt.Sprintf(`{"pid":%d,"sessionId":"%s","cwd":"/home/dev/app","startedAt":1795600000000}`, live, fixtureID(32))
	if err := os.WriteFile(filepath.Join(root, "sessions", strconv.Itoa(live)+".json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sessionsJSON(t, root)
	ps := problemsOf(r, inventory.KindPidNoTranscript)
	if len(ps) != 2 {
		t.Fatalf("want 2 pid problems (dead and live), got %+v", r.Problems)
	}
	got := map[string]bool{}
	for _, p := range ps {
		if p.PidLive == nil {
			t.Fatalf("pid_live missing: %+v", p)
		}
		got[p.SessionID] = *p.PidLive
		if p.SessionID == fixtureID(31) && (p.Pid != 4194307 || p.Path != "sessions/4194307.json" ||
			!strings.Contains(p.Message, "projects/-home-dev-app/"+fixtureID(31)+".jsonl")) {
			t.Errorf("dead pid problem: %+v", p)
		}
	}
	if live, ok := got[fixtureID(31)]; !ok || live {
		t.Errorf("session 31: want a problem with a dead pid, got %v", got)
	}
	if live, ok := got[fixtureID(32)]; !ok || !live {
		t.Errorf("session 32: want a problem with a live pid, got %v", got)
	}
	// A session folder left without its transcript.
	orphan := problemsOf(r, inventory.KindFolderNoTranscript)
	if len(orphan) != 1 || orphan[0].SessionID != fixtureID(33) || orphan[0].Path != "projects/-home-dev-app/"+fixtureID(33) {
		t.Errorf("session folder without transcript: %+v", orphan)
	}
	if len(r.Problems) != 3 {
		t.Errorf("want 3 problems, got %+v", r.Problems)
	}
}

func TestSessionsHistory(t *testing.T) {
	r := sessionsJSON(t, sessionRoot(t, "history"))
	ps := problemsOf(r, inventory.KindHistoryNoTranscript)
	if len(ps) != 2 || len(r.Problems) != 2 {
		t.Fatalf("want 2 history problems, got %+v", r.Problems)
	}
	old, recent := ps[0], ps[1]
	if old.SessionID != fixtureID(41) || old.Prompts != 2 || !strings.Contains(old.Message, "deleted by cleanup") ||
		strings.Join(old.Paths, ",") != "/home/dev/old" {
		t.Errorf("old session: %+v", old)
	}
	if recent.SessionID != fixtureID(42) || recent.Prompts != 1 || strings.Contains(recent.Message, "cleanup") {
		t.Errorf("recent session: %+v", recent)
	}
}

func TestSessionsFolders(t *testing.T) {
	r := sessionsJSON(t, sessionRoot(t, "folders"))
	shared := problemsOf(r, inventory.KindSharedFolder)
	if len(shared) != 1 || strings.Join(shared[0].Paths, ",") != "/w/a-b,/w/a/b" ||
		strings.Join(shared[0].Sessions, ",") != fixtureID(50)+","+fixtureID(51) {
		t.Errorf("shared folder: %+v", shared)
	}
	for _, id := range []string{fixtureID(50), fixtureID(51)} {
		s := sessionByID(t, r, id)
		if len(s.Picker.Notes) != 1 || s.Picker.Notes[0].Code != inventory.NoteSharedFolder {
			t.Errorf("%s: notes %+v", id, s.Picker.Notes)
		}
	}
	split := problemsOf(r, inventory.KindSplitPath)
	if len(split) != 1 || len(split[0].Folders) != 2 || strings.Join(split[0].Sessions, ",") != fixtureID(52)+","+fixtureID(53) {
		t.Errorf("split path: %+v", split)
	}
	old := problemsOf(r, inventory.KindOldEncoding)
	if len(old) != 1 || old[0].SessionID != fixtureID(53) {
		t.Errorf("old encoding: %+v", old)
	}
	if len(r.Problems) != 3 {
		t.Errorf("want 3 problems, got %+v", r.Problems)
	}
}

func TestSessionsCleanup(t *testing.T) {
	root := sessionRoot(t, "cleanup") // cleanupPeriodDays 7
	dir := filepath.Join(root, "projects", "-home-dev-app")
	old := sessionsNow.Add(-10 * 24 * time.Hour)
	young := sessionsNow.Add(-3 * 24 * time.Hour)
	for id, tm := range map[string]time.Time{fixtureID(60): old, fixtureID(61): young} {
		if err := os.Chtimes(filepath.Join(dir, id+".jsonl"), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	r := sessionsJSON(t, root)
	if r.Cleanup.PeriodDays != 7 || r.Cleanup.Cutoff != "2026-11-24T00:00:00Z" {
		t.Errorf("cleanup %+v", r.Cleanup)
	}
	if !sessionByID(t, r, fixtureID(60)).CleanupDue || sessionByID(t, r, fixtureID(61)).CleanupDue {
		t.Errorf("cleanup_due wrong: %+v", r.Sessions)
	}
	ps := problemsOf(r, inventory.KindCleanupDue)
	if len(ps) != 1 || ps[0].SessionID != fixtureID(60) || r.Summary.CleanupDue != 1 {
		t.Errorf("cleanup problems %+v", ps)
	}

	off := sessionRoot(t, "cleanup-off") // cleanupPeriodDays 0: settings invalid, cleanup skipped
	p := filepath.Join(off, "projects", "-home-dev-app", fixtureID(62)+".jsonl")
	if err := os.Chtimes(p, old.AddDate(-1, 0, 0), old.AddDate(-1, 0, 0)); err != nil {
		t.Fatal(err)
	}
	r = sessionsJSON(t, off)
	if r.Cleanup.Enabled || r.Cleanup.Note == "" || len(r.Problems) != 0 || sessionByID(t, r, fixtureID(62)).CleanupDue {
		t.Errorf("cleanup off: %+v, %+v", r.Cleanup, r.Problems)
	}
}

// Strings from transcripts are escaped in text; JSON keeps them exactly.
func TestSessionsEscape(t *testing.T) {
	root := sessionRoot(t, "escape")
	stdout, _, code := run(t, "", "sessions", root)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, c := range stdout {
		if c < 0x20 && c != '\n' || c == 0x7f || c == 0x202e {
			t.Fatalf("raw control character %U in text output:\n%s", c, stdout)
		}
	}
	if !strings.Contains(stdout, `red \x1b[31mALERT`) || !strings.Contains(stdout, `/home/dev/\x1b]0;lost\aapp`) {
		t.Errorf("escaped prompt or lost session's project missing:\n%s", stdout)
	}
	// --recover's text and resume --check's verdict are escaped too.
	for _, args := range [][]string{
		{"sessions", "--recover", "00000047-0000-4000-8000-000000000047", "--out", filepath.Join(t.TempDir(), "rec"), root},
		{"resume", "--check", "--root", root, "00000047-0000-4000-8000-000000000047"},
	} {
		out, errOut, _ := run(t, "", args...)
		for _, c := range out + errOut {
			if c < 0x20 && c != '\n' || c == 0x7f || c == 0x202e {
				t.Fatalf("%v: raw control character %U:\n%s%s", args, c, out, errOut)
			}
		}
	}
	r := sessionsJSON(t, root)
	if s := r.Sessions[0]; !strings.HasPrefix(s.FirstPrompt, "red \x1b[31mALERT") || !strings.Contains(s.Cwd, "\a") {
		t.Errorf("JSON changed the strings: %+v", s)
	}
}

// Text and JSON are the same whatever the run, and --project, --sort,
// --limit select and order sessions.
func TestSessionsOutput(t *testing.T) {
	root := sessionRoot(t, "hidden")
	now := "--now=" + sessionsNow.Format(time.RFC3339)
	a, _, _ := run(t, "", "sessions", now, root)
	b, _, _ := run(t, "", "sessions", now, root)
	if a != b || !strings.Contains(a, "13 sessions: 5 listed by /resume, 8 hidden") {
		t.Errorf("text output not stable or wrong:\n%s", a)
	}
	r := sessionsJSON(t, "--sort", "size", "--limit", "2", root)
	if len(r.Sessions) != 2 || r.Sessions[0].Size < r.Sessions[1].Size {
		t.Errorf("--sort size --limit 2: %+v", r.Sessions)
	}
	r = sessionsJSON(t, "--project", "nowhere", root)
	if len(r.Sessions) != 0 || len(r.Problems) != 0 || r.Summary.Sessions != 0 {
		t.Errorf("--project nowhere: %+v", r)
	}
	for _, bad := range [][]string{{"--format", "sarif"}, {"--sort", "name"}, {"--limit", "-1"}, {"--now", "yesterday"}, {"a", "b"}} {
		if _, _, code := run(t, "", append([]string{"sessions"}, bad...)...); code != ExitUsage {
			t.Errorf("sessions %v: exit %d, want %d", bad, code, ExitUsage)
		}
	}
	if stdout, _, code := run(t, "", "sessions", "--help"); code != ExitOK || !strings.Contains(stdout, "Usage: ccvet sessions") {
		t.Errorf("sessions --help: exit %d\n%s", code, stdout)
	}
	// Without ROOT, as the lint: the home data folder only from a terminal
	// ($CLAUDE_CONFIG_DIR, here a temporary folder).
	t.Setenv("CLAUDE_CONFIG_DIR", root)
	if _, _, code := run(t, "", "sessions", now); code != ExitUsage {
		t.Errorf("default root without a terminal: exit %d, want %d", code, ExitUsage)
	}
	defer func(was func(io.Reader) bool) { interactive = was }(interactive)
	interactive = func(io.Reader) bool { return true }
	if out, _, code := run(t, "", "sessions", now); code != ExitOK || out != a {
		t.Errorf("default root: exit %d\n%s", code, out)
	}
}

// ccvet sessions reads only: every byte and mtime of every fixture stays,
// also with --recover (which writes only into its --out folder) and
// resume --check --root.
func TestSessionsReadOnly(t *testing.T) {
	type state struct {
		sum   [32]byte
		mtime time.Time
		mode  fs.FileMode
	}
	snapshot := func(root string) map[string]state {
		m := map[string]state{}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			info, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			st := state{mtime: info.ModTime(), mode: info.Mode()}
			if info.Mode().IsRegular() {
				b, _ := os.ReadFile(p)
				st.sum = sha256.Sum256(b)
			}
			m[p] = st
			return nil
		})
		return m
	}
	ents, err := os.ReadDir(sessionFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		root := sessionRoot(t, e.Name())
		// Directory mtimes too: nothing is created or removed.
		old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if d != nil && d.IsDir() {
				return os.Chtimes(p, old, old)
			}
			return nil
		})
		before := snapshot(root)
		for _, format := range []string{"text", "json"} {
			if _, stderr, code := run(t, "", "sessions", "--format", format, root); code != ExitOK {
				t.Fatalf("%s: exit %d: %s", e.Name(), code, stderr)
			}
		}
		// --recover of every lost session, and resume --check of every session id.
		stdout, _, _ := run(t, "", "sessions", "--format", "json", root)
		var rep inventory.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		for _, l := range rep.Lost {
			out := filepath.Join(t.TempDir(), "rec")
			if _, stderr, code := run(t, "", "sessions", "--recover", l.SessionID, "--out", out, root); code != ExitOK {
				t.Errorf("%s: --recover %s: exit %d: %s", e.Name(), l.SessionID, code, stderr)
			}
			if _, _, code := run(t, "", "resume", "--check", "--root", root, l.SessionID); code != ExitCannotResume {
				t.Errorf("%s: resume --check %s: exit %d", e.Name(), l.SessionID, code)
			}
		}
		for _, ss := range rep.Sessions {
			if !layout.IsUUID(ss.SessionID) {
				continue
			}
			if _, stderr, code := run(t, "", "resume", "--check", "--format", "json", "--root", root, ss.SessionID); code == ExitUsage || code == ExitInternal {
				t.Errorf("%s: resume --check %s: exit %d: %s", e.Name(), ss.SessionID, code, stderr)
			}
		}
		after := snapshot(root)
		if len(before) != len(after) {
			t.Errorf("%s: %d entries before, %d after", e.Name(), len(before), len(after))
		}
		for p, st := range before {
			if after[p] != st {
				t.Errorf("%s: %s changed: %+v → %+v", e.Name(), p, st, after[p])
			}
		}
	}
}
