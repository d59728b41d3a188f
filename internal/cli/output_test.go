package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOutputNeverReplacesInput: -o and --write-baseline naming a file being
// checked (directly, through a link, or a hard link to it), or a path inside
// a checked data root, exit 2 with a one-line reason before the run, and
// leave every input as it was.
func TestOutputNeverReplacesInput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestOutputNeverReplacesInput skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	copyTree(t, "../../testdata/store", store)
	exports := filepath.Join(dir, "exports")
	copyTree(t, filepath.Join(fixtures, "invalid-json", "bad"), exports)
	transcript := filepath.Join(exports, "session.jsonl")
	before, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(transcript, filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(transcript, filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	history := filepath.Join(store, "history.jsonl")
	histBefore, _ := os.ReadFile(history)
	cases := []struct {
		name, target string
		args         []string
	}{
		{"the transcript", transcript, []string{exports}},
		{"a link to it", filepath.Join(dir, "alias"), []string{exports}},
		{"a hard link to it", filepath.Join(dir, "hard"), []string{exports}},
		{"a file argument", transcript, []string{transcript}},
		{"history in the store", history, []string{store}},
		{"a new file in the store", filepath.Join(store, "report.txt"), []string{store}},
		{"a new file in projects", filepath.Join(store, "projects", "r.json"), []string{filepath.Join(store, "projects")}},
	}
	for _, c := range cases {
		for _, flag := range []string{"-o", "--write-baseline"} {
			for _, format := range []string{"text", "json"} {
				args := append([]string{flag, c.target, "-f", format}, c.args...)
				out, stderr, code := run(t, "", args...)
				if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || out != "" {
					t.Errorf("%s %s: exit %d, stdout %q, stderr %q", c.name, flag, code, out, stderr)
				}
				if got, _ := os.ReadFile(transcript); !bytes.Equal(got, before) {
					t.Fatalf("%s %s: the transcript changed", c.name, flag)
				}
				if got, _ := os.ReadFile(history); !bytes.Equal(got, histBefore) {
					t.Fatalf("%s %s: history.jsonl changed", c.name, flag)
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(store, "report.txt")); err == nil {
		t.Error("a report was written in the store")
	}
	// A report beside the inputs (not in a data root) is fine.
	if _, stderr, code := run(t, "", "-o", filepath.Join(exports, "report.txt"), exports); code != ExitFindings {
		t.Errorf("-o beside the exports: exit %d: %s", code, stderr)
	}
}

// TestOutputAtomic: -o replaces a report in one step, keeps its mode, and
// leaves no temporary file; a path that cannot be written fails before the
// run (nothing on stdout, exit 2), and a failed write exits 2, not 3.
func TestOutputAtomic(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestOutputAtomic skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	good := filepath.Join(fixtures, "missing-final-newline", "good")
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	if err := os.WriteFile(report, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, "", "-f", "json", "-o", report, good); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(report)
	st, _ := os.Stat(report)
	if !bytes.HasPrefix(got, []byte("{")) || st.Mode().Perm() != 0o640 {
		t.Errorf("report %q, mode %v", got, st.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	// Written through a link: the link stays, its target gets the report.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(report, link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, "", "-o", link, good); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if got, _ := os.ReadFile(report); !bytes.Contains(got, []byte("checked")) {
		t.Errorf("the link's target did not get the report: %q", got)
	}
	readOnly := filepath.Join(dir, "ro.txt")
	if err := os.WriteFile(readOnly, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"no such folder", []string{"-o", filepath.Join(dir, "nope", "r.txt")}},
		{"a folder", []string{"-o", dir}},
		{"read-only -o", []string{"-o", readOnly}},
		{"read-only --write-baseline", []string{"--write-baseline", readOnly}},
		{"baseline in no such folder", []string{"--write-baseline", filepath.Join(dir, "nope", "b.json")}},
		{"full disk", []string{"-o", "/dev/full"}},
	} {
		out, stderr, code := run(t, "", append(c.args, good)...)
		if code != ExitUsage || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, code, out, stderr)
		}
	}
	if got, _ := os.ReadFile(readOnly); string(got) != "keep" {
		t.Errorf("the read-only file changed: %q", got)
	}
	// A device is written in place, never replaced (as root, a rename over
	// /dev/null would succeed).
	for _, flag := range []string{"-o", "--write-baseline"} {
		if _, stderr, code := run(t, "", flag, os.DevNull, good); code != ExitOK {
			t.Errorf("%s %s: exit %d: %s", flag, os.DevNull, code, stderr)
		}
		if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
			t.Fatalf("%s replaced %s: %v %v", flag, os.DevNull, st.Mode(), err)
		}
	}
}

// TestNothingToCheck: paths that hold nothing ccvet checks exit 2 and say
// why, unless --allow-empty.
func TestNothingToCheck(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", dir)
	if code != ExitUsage || !strings.Contains(stderr, "nothing to check") || !strings.Contains(stderr, "1 file is not") {
		t.Errorf("empty: exit %d, stderr %q", code, stderr)
	}
	out, stderr, code := run(t, "", "--allow-empty", dir)
	if code != ExitOK || !strings.Contains(out, "0 files checked") {
		t.Errorf("--allow-empty: exit %d, %q %q", code, out, stderr)
	}
	// Everything excluded by a configuration: the reason names it.
	copyTree(t, filepath.Join(fixtures, "invalid-json", "bad"), filepath.Join(dir, "x"))
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("exclude: ['**']\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "", "--config", cfg, dir)
	if code != ExitUsage || !strings.Contains(stderr, "excluded by") {
		t.Errorf("excluded: exit %d, stderr %q", code, stderr)
	}
}

// TestNothingToCheckNamesBackup: a data root whose transcripts sit only in a
// projects.bak-* folder (which a walk of the root skips) gets "nothing to
// check" with that folder named and the command that checks it; an empty
// projects.bak-* folder, or none, adds nothing.
func TestNothingToCheckNamesBackup(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	src, err := os.ReadFile(filepath.Join(fixtures, "nul-bytes", "bad", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, d := range []string{"root/projects", "root/projects.bak-2026-11-20/-home-me", "root/projects.bak-empty/-home-me"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile("root/projects.bak-2026-11-20/-home-me/aaaaaaaa-0000-4000-8000-000000000000.jsonl", src, 0o644); err != nil {
		t.Fatal(err)
	}
	hint := "root/projects.bak-2026-11-20 holds 1 transcript: check it with `ccvet root root/projects.bak-2026-11-20`"
	for _, arg := range []string{"root", "root/projects"} {
		_, stderr, code := run(t, "", arg)
		if code != ExitUsage || !strings.Contains(stderr, "nothing to check in "+arg+": ") || !strings.Contains(stderr, hint) || strings.Contains(stderr, "projects.bak-empty") {
			t.Errorf("ccvet %s: exit %d, stderr %q; want exit 2 naming %q", arg, code, stderr, hint)
		}
	}
	// What the hint says to run checks the backup.
	if _, stderr, code := run(t, "", "root", "root/projects.bak-2026-11-20"); code != ExitFindings {
		t.Errorf("ccvet root root/projects.bak-2026-11-20: exit %d, %s", code, stderr)
	}
	if err := os.RemoveAll("root/projects.bak-2026-11-20"); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, "", "root"); code != ExitUsage || strings.Contains(stderr, "projects.bak") {
		t.Errorf("ccvet root without a backup holding transcripts: exit %d, %q", code, stderr)
	}
}
