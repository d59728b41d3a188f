package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/inventory"
)

// lostRoot is the "lost" fixture with the traces of session 81 dated
// before the cutoff of the last cleanup (.last-cleanup 2026-11-25).
func lostRoot(t *testing.T) string {
	t.Helper()
	root := sessionRoot(t, "lost")
	old := time.Date(2026, 9, 1, 10, 5, 0, 0, time.UTC)
	for _, p := range []string{
		"file-history/" + fixtureID(81) + "/e11146671d8f3d0e@v1",
		"file-history/" + fixtureID(81) + "/e11146671d8f3d0e@v2",
		"todos/" + fixtureID(81) + "-agent-" + fixtureID(81) + ".json",
		"todos/" + fixtureID(81) + "-agent-00000099-0000-4000-8000-000000000099.json",
	} {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(p)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func lostByID(t *testing.T, r *inventory.Report, id string) inventory.Lost {
	t.Helper()
	for _, l := range r.Lost {
		if l.SessionID == id {
			return l
		}
	}
	t.Fatalf("no lost session %s in %+v", id, r.Lost)
	return inventory.Lost{}
}

// Sessions whose transcript is gone are listed once each, with what
// survives and why they went; live sessions' traces are not.
func TestSessionsLost(t *testing.T) {
	root := lostRoot(t)
	r := sessionsJSON(t, root)
	if len(r.Lost) != 3 || r.Summary.Lost != 3 || r.SchemaVersion != 1 {
		t.Fatalf("want 3 lost sessions, got %+v", r.Lost)
	}
	type counts struct{ prompts, pasted, files, agents, results, todos int }
	cases := []struct {
		id     int
		cause  string
		c      counts
		traces string
		forks  string
		seen   string
	}{
		{81, inventory.CauseCleanup, counts{2, 2, 2, 0, 0, 1}, "file-history,fork,history,todos", fixtureID(80), "2026-09-01T10:05:00Z"},
		{82, inventory.CauseFolderLeft, counts{1, 1, 3, 1, 2, 0}, "file-history,history,session-folder", "", "2026-11-20T10:00:00Z"},
		{83, inventory.CausePidFile, counts{}, "pid-file,session-env", "", "2026-11-20T10:00:00Z"},
	}
	for _, c := range cases {
		l := lostByID(t, r, fixtureID(c.id))
		got := counts{l.Prompts, l.Pasted, l.FileVersion, l.Subagents, l.ToolResults, l.Todos}
		if l.Cause != c.cause || got != c.c || strings.Join(l.Traces, ",") != c.traces || strings.Join(l.Forks, ",") != c.forks ||
			l.LastSeen != c.seen || l.Project != "-home-dev-app" || l.Cwd != "/home/dev/app" || l.CauseDetail == "" {
			t.Errorf("session %d: %+v", c.id, l)
		}
	}
	if r.Lost[0].SessionID != fixtureID(82) && r.Lost[0].SessionID != fixtureID(83) {
		t.Errorf("not newest first: %+v", r.Lost)
	}
	// The text says the same in a table.
	out, _, code := run(t, "", "sessions", "--now", sessionsNow.Format(time.RFC3339), root)
	if code != ExitOK || !strings.Contains(out, "Lost (transcript gone, traces left") ||
		!strings.Contains(out, "00000051  /home/dev/app  cleanup      2        2              0       0             1") ||
		!strings.Contains(out, "; 3 lost;") {
		t.Errorf("text:\n%s", out)
	}
	// Without .last-cleanup the age alone still says cleanup.
	if err := os.Remove(filepath.Join(root, ".last-cleanup")); err != nil {
		t.Fatal(err)
	}
	if l := lostByID(t, sessionsJSON(t, root), fixtureID(81)); l.Cause != inventory.CauseCleanup || !strings.Contains(l.CauseDetail, "no .last-cleanup") {
		t.Errorf("without .last-cleanup: %+v", l)
	}
	// Only a session-env/ folder and an empty todo list: nothing survives, not listed.
	ghost := "000000aa-0000-4000-8000-0000000000aa"
	if err := os.MkdirAll(filepath.Join(root, "session-env", ghost), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "todos", ghost+"-agent-"+ghost+".json"), []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := sessionsJSON(t, root); len(r.Lost) != 3 {
		t.Errorf("a session with nothing left is listed: %+v", r.Lost)
	}
	// A healthy store has none.
	if r := sessionsJSON(t, sessionRoot(t, "clean")); len(r.Lost) != 0 {
		t.Errorf("lost on a clean store: %+v", r.Lost)
	}
}

// --recover copies every surviving prompt (with its pastes), file version,
// subagent transcript, tool result and todo, and says what is missing.
func TestSessionsRecover(t *testing.T) {
	root := lostRoot(t)
	// A hostile paste hash and a prompt naming a path that climbs: nothing is
	// read or written outside their folders.
	climb := "/../../../../escaped.txt"
	sum := sha256.Sum256([]byte(climb))
	fh := filepath.Join(root, "file-history", fixtureID(83))
	if err := os.MkdirAll(fh, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fh, hex.EncodeToString(sum[:])[:16]+"@v1"), []byte("climbing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hist, err := os.OpenFile(filepath.Join(root, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(hist, `{"display":"see %s","pastedContents":{"1":{"id":1,"type":"text","contentHash":"../../settings"}},"timestamp":1795600000000,"project":"/home/dev/app","sessionId":"%s"}`+"\n", climb, fixtureID(83))
	hist.Close()
	hostile := filepath.Join(t.TempDir(), "hostile")
	if _, stderr, code := run(t, "", "sessions", "--recover", fixtureID(83), "--out", hostile, root); code != ExitOK {
		t.Fatalf("hostile: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(hostile, "files", "escaped.txt@v1")); err != nil || string(b) != "climbing\n" {
		t.Errorf("the climbing path: %q %v", b, err)
	}
	if md, _ := os.ReadFile(filepath.Join(hostile, "prompts.md")); !strings.Contains(string(md), "paste-cache/../../settings.txt is gone") {
		t.Errorf("the hostile paste hash was read:\n%s", md)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(hostile), "escaped.txt@v1")); err == nil {
		t.Errorf("written outside --out")
	}

	out := filepath.Join(t.TempDir(), "rec")
	stdout, stderr, code := run(t, "", "sessions", "--recover", fixtureID(82), "--out", out, "--format", "json", root)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec inventory.Recovered
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	want := "README.md,file-history/ffffeeeeddddcccc@v1,files/home/dev/app/main.go@v1,files/home/dev/app/main.go@v2," +
		"prompts.jsonl,prompts.md,subagents/agent-b1.jsonl,tool-results/toolu_01.txt,tool-results/toolu_02.json"
	var got []string
	_ = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if strings.Join(got, ",") != want || rec.Prompts != 1 || rec.FileVersions != 3 || rec.Named != 2 || rec.PastedGone != 1 {
		t.Errorf("recovered %v, %+v", got, rec)
	}
	v2, _ := os.ReadFile(filepath.Join(out, "files", "home", "dev", "app", "main.go@v2"))
	orig, _ := os.ReadFile(filepath.Join(root, "file-history", fixtureID(82), "ba61d96496180d11@v2"))
	if string(v2) != string(orig) || len(v2) == 0 {
		t.Errorf("main.go@v2 = %q, want %q", v2, orig)
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	if !strings.Contains(string(readme), "Not recoverable: the transcript itself") || !strings.Contains(string(readme), "paste-cache file is gone") {
		t.Errorf("README.md:\n%s", readme)
	}

	out81 := filepath.Join(t.TempDir(), "rec81")
	if _, stderr, code := run(t, "", "sessions", "--recover", fixtureID(81), "--out", out81, root); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines, _ := os.ReadFile(filepath.Join(out81, "prompts.jsonl"))
	md, _ := os.ReadFile(filepath.Join(out81, "prompts.md"))
	if strings.Count(string(lines), "\n") != 2 || !strings.Contains(string(lines), `"content":"A long pasted log\nline two`) ||
		!strings.Contains(string(md), "````text\nA long pasted log") || strings.Index(string(md), "First prompt") > strings.Index(string(md), "Second prompt") {
		t.Errorf("prompts of 81:\n%s\n%s", lines, md)
	}
	// The second prompt names /home/dev/app/notes.md, whose hash names its backups.
	for _, v := range []string{"v1", "v2"} {
		if _, err := os.Stat(filepath.Join(out81, "files", "home", "dev", "app", "notes.md@"+v)); err != nil {
			t.Errorf("notes.md@%s not named by the path the prompt gives: %v", v, err)
		}
	}

	// Refused: inside the data root, a folder not empty, a session not lost, a bad id.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--recover", fixtureID(81), "--out", filepath.Join(root, "rescue")}, "lies inside"},
		{[]string{"--recover", fixtureID(81), "--out", out}, "not empty"},
		{[]string{"--recover", fixtureID(80), "--out", filepath.Join(t.TempDir(), "x")}, "is not lost"},
		{[]string{"--recover", fixtureID(99), "--out", filepath.Join(t.TempDir(), "x")}, "nothing under"},
		{[]string{"--recover", "../x", "--out", filepath.Join(t.TempDir(), "x")}, "want a session id"},
		{[]string{"--recover", fixtureID(81)}, "go together"},
	} {
		_, stderr, code := run(t, "", append(append([]string{"sessions"}, c.args...), root)...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "rescue")); err == nil {
		t.Errorf("a folder was made inside the data root")
	}
}

// ROOT/projects and ROOT/projects/FOLDER read ROOT (the folder only);
// a root whose transcripts sit in projects.bak-* names that folder.
func TestSessionsRootArgument(t *testing.T) {
	root := sessionRoot(t, "clean")
	want := sessionsJSON(t, root)
	if r := sessionsJSON(t, filepath.Join(root, "projects")); len(r.Sessions) != 2 || r.Root != root || r.Cleanup.Source != "settings.json" {
		t.Errorf("ROOT/projects: %+v", r)
	}
	r := sessionsJSON(t, filepath.Join(root, "projects", "-home-dev-app"))
	if len(r.Sessions) != len(want.Sessions) || r.Root != root {
		t.Errorf("ROOT/projects/FOLDER: %+v", r)
	}
	// --project narrows the folder's sessions too (it was ignored).
	if r := sessionsJSON(t, "--project", "no-such-project", filepath.Join(root, "projects", "-home-dev-app")); len(r.Sessions) != 0 || r.Summary.Sessions != 0 {
		t.Errorf("--project no-such-project ROOT/projects/FOLDER: %d sessions, want none", len(r.Sessions))
	}
	if r := sessionsJSON(t, "--project", "app", filepath.Join(root, "projects", "-home-dev-app")); len(r.Sessions) != len(want.Sessions) {
		t.Errorf("--project app ROOT/projects/FOLDER: %d sessions, want %d", len(r.Sessions), len(want.Sessions))
	}
	other := filepath.Join(sessionRoot(t, "lost"), "projects", "-elsewhere")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := sessionsJSON(t, other); len(r.Sessions) != 0 || len(r.Lost) != 0 {
		t.Errorf("another folder: %+v", r)
	}
	if err := os.Rename(filepath.Join(root, "projects"), filepath.Join(root, "projects.bak-2026-11-01")); err != nil {
		t.Fatal(err)
	}
	r = sessionsJSON(t, root)
	if len(r.Backups) != 1 || r.Backups[0] != (inventory.Backup{Path: "projects.bak-2026-11-01", Transcripts: 2}) {
		t.Errorf("backups: %+v", r.Backups)
	}
	out, _, _ := run(t, "", "sessions", root)
	if !strings.Contains(out, "No sessions.\n  projects.bak-2026-11-01 holds 2 transcripts") {
		t.Errorf("text:\n%s", out)
	}
}

// --paths shows full ids and paths.
func TestSessionsPaths(t *testing.T) {
	root := sessionRoot(t, "clean")
	out, _, code := run(t, "", "sessions", "--paths", root)
	p := filepath.Join(root, "projects", "-home-dev-app", fixtureID(1)+".jsonl")
	if code != ExitOK || !strings.Contains(out, fixtureID(1)+"  listed   "+p) {
		t.Errorf("--paths:\n%s", out)
	}
}

// The forecast counts what cleanup deletes now, within 7 and within 30 days.
func TestSessionsForecast(t *testing.T) {
	root := sessionRoot(t, "cleanup") // cleanupPeriodDays 7
	dir := filepath.Join(root, "projects", "-home-dev-app")
	for id, age := range map[string]int{fixtureID(60): 10, fixtureID(61): 3} {
		tm := sessionsNow.Add(-time.Duration(age) * 24 * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, id+".jsonl"), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	if f := sessionsJSON(t, root).Cleanup.Forecast; f != (inventory.Forecast{DueNow: 1, Within7: 2, Within30: 2}) {
		t.Errorf("forecast %+v", f)
	}
	if f := sessionsJSON(t, sessionRoot(t, "lost")).Cleanup.Forecast; f != (inventory.Forecast{Within30: 1}) {
		t.Errorf("forecast (30 days) %+v", f)
	}
	off := sessionsJSON(t, sessionRoot(t, "cleanup-off"))
	if off.Cleanup.Forecast != (inventory.Forecast{}) || off.Cleanup.Enabled {
		t.Errorf("cleanup off: %+v", off.Cleanup)
	}
	// 99999 days (anthropics/claude-code#41458) is valid: nothing is deleted.
	long := sessionRoot(t, "cleanup")
	if err := os.WriteFile(filepath.Join(long, "settings.json"), []byte(`{"cleanupPeriodDays": 99999}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := sessionsJSON(t, long).Cleanup
	if !c.Enabled || c.PeriodDays != 99999 || c.Forecast != (inventory.Forecast{}) || !strings.Contains(c.Note, "deletes nothing") {
		t.Errorf("99999: %+v", c)
	}
}

// TestSessionsShortIDWholeCharacters: the short session column cuts a
// name that is not a session id between characters, not inside one.
func TestSessionsShortIDWholeCharacters(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "projects", "-p", "日本語の記録.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"type":"user","cwd":"/p","message":{"role":"user","content":"hi"}}`+"\n"), 0o644); err != nil {
		t.Skipf("no such file name here: %v", err)
	}
	out, _, code := run(t, "", "sessions", "--now", sessionsNow.Format(time.RFC3339), root)
	if code != ExitOK || strings.Contains(out, `\x`) || !strings.Contains(out, "日本 ") {
		t.Errorf("exit %d: want the id cut to 日本, no \\x bytes:\n%s", code, out)
	}
}

// --recover names what survives but it does not copy (a link, which it
// never follows; a file it cannot read), in its output, its JSON and the
// README it writes, instead of counting it out in silence.
func TestSessionsRecoverSkips(t *testing.T) {
	root := lostRoot(t)
	outside := filepath.Join(t.TempDir(), "elsewhere.txt")
	if err := os.WriteFile(outside, []byte("not the store's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := []string{
		filepath.Join(root, "file-history", fixtureID(82), "0123456789abcdef@v1"),
		filepath.Join(root, "projects", "-home-dev-app", fixtureID(82), "tool-results", "toolu_03.txt"),
	}
	for _, l := range links {
		if err := os.Symlink(outside, l); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	out := filepath.Join(t.TempDir(), "rec")
	stdout, stderr, code := run(t, "", "sessions", "--recover", fixtureID(82), "--out", out, "--format", "json", root)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec inventory.Recovered
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"file-history/" + fixtureID(82) + "/0123456789abcdef@v1: a link, not followed",
		"projects/-home-dev-app/" + fixtureID(82) + "/tool-results/toolu_03.txt: a link, not followed",
	}
	if strings.Join(rec.Skipped, "|") != strings.Join(want, "|") || rec.FileVersions != 3 || rec.ToolResults != 2 {
		t.Errorf("skipped %q, %d file versions, %d tool results", rec.Skipped, rec.FileVersions, rec.ToolResults)
	}
	if readme, _ := os.ReadFile(filepath.Join(out, "README.md")); !strings.Contains(string(readme), "- "+want[0]) {
		t.Errorf("README.md does not name what was not copied:\n%s", readme)
	}
	text, _, code := run(t, "", "sessions", "--recover", fixtureID(82), "--out", filepath.Join(t.TempDir(), "rec2"), root)
	if code != ExitOK || !strings.Contains(text, "  skipped "+want[1]) {
		t.Errorf("exit %d, text:\n%s", code, text)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "not the store's\n" {
		t.Errorf("the file a link points to changed: %q %v", b, err)
	}
}
