package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/fix"
)

// fixHome isolates HOME, CLAUDE_CONFIG_DIR and XDG_STATE_HOME and returns
// a data root holding a copy of freshell's broken transcript, old enough
// to pass the live-session gate, and its path.
func fixHome(t *testing.T) (root, file string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	root = filepath.Join(home, ".claude")
	t.Setenv("CLAUDE_CONFIG_DIR", root)
	proj := filepath.Join(root, "projects", "-work-demo")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../testdata/fix/freshell/real-corrupted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(proj, "b7936c10-4935-441c-837c-c1f33cafec2d.jsonl")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	return root, file
}

func TestFixPlanWriteUndo(t *testing.T) {
	root, file := fixHome(t)
	orig, _ := os.ReadFile(file)

	out, errOut, code := run(t, "", "fix", root)
	if code != ExitFindings || !strings.Contains(out, "[safe] orphan-parent") || !strings.Contains(out, "gap 0.46 s") {
		t.Fatalf("plan: code %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(file); string(now) != string(orig) {
		t.Fatal("the plan wrote")
	}

	out, errOut, code = run(t, "", "fix", "--write", "--diff", root)
	if code != ExitOK || !strings.Contains(out, "wrote 1 file(s)") || !strings.Contains(out, "@@ line 4 @@") {
		t.Fatalf("write: code %d\n%s%s", code, out, errOut)
	}
	fixed, _ := os.ReadFile(file)
	if len(fixed) != len(orig) || string(fixed) == string(orig) {
		t.Fatal("write did not splice the parent in place")
	}
	if _, _, code := run(t, "", "fix", root); code != ExitOK {
		t.Fatalf("second plan: code %d", code)
	}

	out, _, code = run(t, "", "fix", "--list-backups")
	if code != ExitOK || !strings.Contains(out, "1 file(s), 1 edit(s)") {
		t.Fatalf("list: %d %s", code, out)
	}
	bak := filepath.Join(os.Getenv("XDG_STATE_HOME"), "ccvet", "backups")
	runs, _ := os.ReadDir(bak)
	if len(runs) != 1 {
		t.Fatalf("want one backup run in %s, got %d", bak, len(runs))
	}
	m, err := os.ReadFile(filepath.Join(bak, runs[0].Name(), "manifest.json"))
	if err != nil || !strings.Contains(string(m), `"sha256_before"`) || !strings.Contains(string(m), `"rule": "orphan-parent"`) ||
		!strings.Contains(string(m), `"fixes": [`) {
		t.Fatalf("manifest: %v\n%s", err, m)
	}
	if b, err := os.ReadFile(filepath.Join(bak, runs[0].Name(), "projects", "-work-demo", filepath.Base(file)+".orig")); err != nil || string(b) != string(orig) {
		t.Fatalf("backup: %v", err)
	}

	out, errOut, code = run(t, "", "fix", "--undo")
	if code != ExitOK || !strings.Contains(out, "restored") {
		t.Fatalf("undo: %d %s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(file); string(now) != string(orig) {
		t.Fatal("undo did not restore the original")
	}
}

// TestFixUndoLoose: a file outside every data folder is fixed (after a
// backup), but --undo does not write it: the refusal names the backup to
// copy back by hand.
func TestFixUndoLoose(t *testing.T) {
	_, file := fixHome(t)
	loose := filepath.Join(t.TempDir(), filepath.Base(file))
	orig, _ := os.ReadFile(file)
	if err := os.WriteFile(loose, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(loose, old, old)
	if out, errOut, code := run(t, "", "fix", "--write", loose); code != ExitOK || !strings.Contains(out, "wrote 1 file(s)") {
		t.Fatalf("write: code %d\n%s%s", code, out, errOut)
	}
	fixed, _ := os.ReadFile(loose)
	_, errOut, code := run(t, "", "fix", "--undo")
	if code != ExitRefused || !strings.Contains(errOut, "is in no Claude data folder") || !strings.Contains(errOut, "restore it by hand from ") ||
		!strings.Contains(errOut, filepath.Join("loose", "")) {
		t.Fatalf("undo: code %d: %s", code, errOut)
	}
	if now, _ := os.ReadFile(loose); string(now) != string(fixed) {
		t.Fatal("undo wrote a file outside every data folder")
	}
}

func TestFixJSON(t *testing.T) {
	root, _ := fixHome(t)
	out, _, _ := run(t, "", "fix", "-f", "json", root)
	var doc struct {
		Findings []struct {
			Rule string `json:"rule"`
			Fix  *struct {
				Safety string `json:"safety"`
				Edits  []struct {
					Offset int64  `json:"offset"`
					Length int64  `json:"length"`
					Text   string `json:"text"`
				} `json:"edits"`
			} `json:"fix"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range doc.Findings {
		if f.Fix == nil {
			t.Errorf("%s finding has no fix", f.Rule)
			continue
		}
		if f.Rule == "orphan-parent" {
			found = f.Fix.Safety == "safe" && len(f.Fix.Edits) == 1 && f.Fix.Edits[0].Length == 36 && f.Fix.Edits[0].Offset == 2062
		}
	}
	if !found {
		t.Fatalf("no safe orphan-parent fix with its edit:\n%s", out)
	}
}

func TestFixRefusals(t *testing.T) {
	root, file := fixHome(t)
	orig, _ := os.ReadFile(file)
	unchanged := func() {
		t.Helper()
		if now, _ := os.ReadFile(file); string(now) != string(orig) {
			t.Fatal("file written")
		}
	}
	if _, errOut, code := run(t, "", "fix", "--write", "--backup-dir", filepath.Join(root, "bak"), root); code != ExitUsage ||
		!strings.Contains(errOut, "inside the checked Claude data folder") {
		t.Fatalf("backup dir inside the root: %d %s", code, errOut)
	}
	unchanged()

	now := time.Now()
	_ = os.Chtimes(file, now, now)
	if _, errOut, code := run(t, "", "fix", "--write", root); code != ExitRefused || !strings.Contains(errOut, "may be live") {
		t.Fatalf("fresh file: %d %s", code, errOut)
	}
	unchanged()

	// A live pid naming the session: refused even with --force.
	sessions := filepath.Join(root, "sessions")
	_ = os.MkdirAll(sessions, 0o700)
	pid := os.Getpid()
	rec := `{"pid":` + strconv.Itoa(pid) + `,"sessionId":"b7936c10-4935-441c-837c-c1f33cafec2d","cwd":"/work/demo"}`
	_ = os.WriteFile(filepath.Join(sessions, strconv.Itoa(pid)+".json"), []byte(rec), 0o600)
	if _, errOut, code := run(t, "", "fix", "--write", "--force", root); code != ExitRefused || !strings.Contains(errOut, "live") {
		t.Fatalf("live pid: %d %s", code, errOut)
	}
	unchanged()

	for _, args := range [][]string{{"fix", "-f", "xml", root}, {"fix", "-"}, {"fix", "--select", "no-such-rule", root}} {
		if _, _, code := run(t, "", args...); code != ExitUsage {
			t.Errorf("%v: code %d, want %d", args, code, ExitUsage)
		}
	}
}

func TestFixExitNonZeroOnFix(t *testing.T) {
	root, _ := fixHome(t)
	if _, errOut, code := run(t, "", "fix", "--write", "--exit-non-zero-on-fix", root); code != ExitFindings {
		t.Fatalf("code %d %s", code, errOut)
	}
	if _, _, code := run(t, "", "fix", "--write", "--exit-non-zero-on-fix", root); code != ExitOK {
		t.Fatalf("nothing left to write: code %d", code)
	}
}

func TestLintSaysFixable(t *testing.T) {
	root, _ := fixHome(t)
	out, _, _ := run(t, "", "--no-snippet", root)
	if !strings.HasSuffix(out, "1 fixable with `ccvet fix --write` (0 more with --unsafe)\n") {
		t.Fatalf("lint output does not end with the fixable count:\n%s", out)
	}
}

// TestFixNeverWritesWhenVerificationFails: a failed verification of one
// file means exit 4 and no byte written anywhere.
func TestFixNeverWritesWhenVerificationFails(t *testing.T) {
	root, file := fixHome(t)
	orig, _ := os.ReadFile(file)
	fixCheck = func(*fix.File) error { return errors.New("verification failed: injected") }
	defer func() { fixCheck = nil }()
	_, errOut, code := run(t, "", "fix", "--write", root)
	if code != ExitRefused || !strings.Contains(errOut, "injected") || !strings.Contains(errOut, "nothing written") {
		t.Fatalf("code %d: %s", code, errOut)
	}
	if now, _ := os.ReadFile(file); string(now) != string(orig) {
		t.Fatal("written despite the failed verification")
	}
	if ents, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "ccvet", "backups")); len(ents) != 0 {
		t.Fatal("a backup run was started")
	}
}

func TestFixSelectIgnore(t *testing.T) {
	root, file := fixHome(t)
	orig, _ := os.ReadFile(file)
	for _, args := range [][]string{
		{"fix", "--write", "--ignore", "orphan-parent", root},
		{"fix", "--write", "--select", "blank-line", root},
	} {
		out, errOut, code := run(t, "", args...)
		if code == ExitRefused || code == ExitUsage {
			t.Fatalf("%v: code %d %s", args, code, errOut)
		}
		if now, _ := os.ReadFile(file); string(now) != string(orig) {
			t.Fatalf("%v wrote the orphan-parent fix it should leave:\n%s", args, out)
		}
		// The plan says why the fix is left, not that it waits for a later pass.
		if !strings.Contains(out, "[safe] orphan-parent: ") || !strings.Contains(out, "(left out by --select or --ignore)") ||
			strings.Contains(out, "waits for") {
			t.Errorf("%v: the plan does not say the orphan-parent fix is left out:\n%s", args, out)
		}
	}
	// SARIF carries the fixes the run would apply, so none that --select leaves out.
	for sel, want := range map[string]int{"orphan-parent": 1, "blank-line": 0} {
		out, errOut, _ := run(t, "", "fix", "--select", sel, "-f", "sarif", root)
		if n := strings.Count(out, `"fixes"`); n != want {
			t.Errorf("fix --select %s -f sarif: %d results with fixes, want %d\n%s%s", sel, n, want, out, errOut)
		}
	}
	if _, _, code := run(t, "", "fix", "--write", "--select", "orphan-parent", root); code != ExitOK {
		t.Fatalf("--select orphan-parent: code %d", code)
	}
	if now, _ := os.ReadFile(file); string(now) == string(orig) {
		t.Fatal("--select orphan-parent did not write its fix")
	}
}

// TestEscapeBytesBidiControls: the --diff lines show every bidirectional
// control escaped, the Arabic letter mark (U+061C) as well as the
// overrides, isolates and the other marks.
func TestEscapeBytesBidiControls(t *testing.T) {
	for _, r := range []rune{0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069} {
		got := escapeBytes([]byte("a" + string(r) + "b"))
		if strings.ContainsRune(got, r) || !strings.HasPrefix(got, `a\x`) || !strings.HasSuffix(got, "b") {
			t.Errorf("U+%04X: escapeBytes gave %q", r, got)
		}
	}
}

// TestFixNothingToCheck: paths that hold nothing fix could check (an empty
// data root; one whose only transcript is a FIFO, which is never opened)
// are a usage error that says why, exit 2 as lint's, not an empty plan
// and exit 0; --allow-empty makes them exit 0, as for lint.
func TestFixNothingToCheck(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	empty := filepath.Join(home, "empty", ".claude")
	if err := os.MkdirAll(filepath.Join(empty, "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	roots := []string{empty}
	fifoRoot := filepath.Join(home, "fifo", ".claude")
	proj := filepath.Join(fifoRoot, "projects", "-work-demo")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	if f := makeFifo(t, proj); f != "" {
		if err := os.Rename(f, filepath.Join(proj, "44444444-4444-4444-8444-444444444444.jsonl")); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, fifoRoot)
	}
	for _, root := range roots {
		_, lintErr, lintCode := run(t, "", root)
		if lintCode != 2 || !strings.Contains(lintErr, "nothing to check") {
			t.Fatalf("%s: lint exits %d: %s", root, lintCode, lintErr)
		}
		for _, args := range [][]string{{"fix", root}, {"fix", "--write", root}} {
			out, errOut, code := run(t, "", args...)
			if code != lintCode || errOut != lintErr || out != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and lint's %q", args, code, out, errOut, lintCode, lintErr)
			}
		}
		if _, errOut, code := run(t, "", "fix", "--allow-empty", root); code != ExitOK {
			t.Errorf("fix --allow-empty %s: exit %d: %s", root, code, errOut)
		}
	}
}

// TestUndoGivenOnce: pflag keeps a repeated flag's last value silently, so
// `--undo A --undo B` undid B and `--undo --undo` passed. A second --undo
// is a usage error (exit 2) for fix and redact, before any backup is
// read; one --undo, with or without an ID, is unchanged.
func TestUndoGivenOnce(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	for _, cmd := range []string{"fix", "redact"} {
		for _, args := range [][]string{
			{"--undo", "--undo"},
			{"--undo", "a", "--undo", "b"},
			{"--undo=a", "--undo"},
			{"--undo", "--undo=b"},
		} {
			out, errOut, code := run(t, "", append([]string{cmd}, args...)...)
			if code != ExitUsage || out != "" || !strings.Contains(errOut, "--undo given 2 times") {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want a usage error", cmd, args, code, out, errOut)
			}
		}
		for _, args := range [][]string{{"--undo"}, {"--undo", "a"}, {"--undo=a"}} {
			_, errOut, code := run(t, "", append([]string{cmd}, args...)...)
			if code != ExitRefused || !strings.Contains(errOut, "no backup run") {
				t.Errorf("%s %v: exit %d, stderr %q; want the store's refusal (no backups)", cmd, args, code, errOut)
			}
		}
	}
}
