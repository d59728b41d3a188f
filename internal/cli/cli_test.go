package cli

import (
	"bytes"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

const fixtures = "../../testdata/rules"

func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestExitCodes(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	good := filepath.Join(fixtures, "missing-final-newline", "good")
	warn := filepath.Join(fixtures, "missing-final-newline", "bad")
	bad := filepath.Join(fixtures, "invalid-json", "bad")
	// -o and --write-baseline naming one file: the report replaced the
	// baseline just written (exit 0).
	sameOut, sameNew := filepath.Join(t.TempDir(), "b.json"), filepath.Join(t.TempDir(), "new.json")
	if err := os.WriteFile(sameOut, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{good}, ExitOK},
		{"error finding", []string{bad}, ExitFindings},
		{"warning below fail-on", []string{warn}, ExitOK},
		{"fail-on warning", []string{"--fail-on", "warning", warn}, ExitFindings},
		{"exit-zero", []string{"--exit-zero", bad}, ExitOK},
		{"exit-zero json", []string{"--exit-zero", "-f", "json", bad}, ExitOK},
		{"findings json", []string{"-f", "json", bad}, ExitFindings},
		{"disabled rule", []string{"--disable", "invalid-json,orphan-parent", "--disable", "unmatched-tool-use", bad}, -1},
		{"unknown flag", []string{"--bogus", good}, ExitUsage},
		{"unknown format", []string{"-f", "xml", good}, ExitUsage},
		{"unknown rule", []string{"--enable", "no-such-rule", good}, ExitUsage},
		{"bad fail-on", []string{"--fail-on", "fatal", good}, ExitUsage},
		{"missing path", []string{filepath.Join(t.TempDir(), "nope")}, ExitUsage},
		{"two stdins", []string{"-", "-"}, ExitUsage},
		{"negative jobs", []string{"-j", "-3", good}, ExitUsage},
		{"negative max-per-file", []string{"--max-per-file", "-1", good}, ExitUsage},
		{"report and baseline in one file", []string{"-o", sameOut, "--write-baseline", sameOut, good}, ExitUsage},
		{"report and baseline in one new file", []string{"-o", sameNew, "--write-baseline", filepath.Join(filepath.Dir(sameNew), ".", filepath.Base(sameNew)), good}, ExitUsage},
		{"report and baseline on a device", []string{"-o", os.DevNull, "--write-baseline", os.DevNull, good}, ExitOK},
		{"stdin-filename without -", []string{"--stdin-filename", "x.jsonl", good}, ExitUsage},
		{"baseline too large", []string{"--baseline", hugeBaseline(t), good}, ExitUsage},
		{"report write fails", []string{"-o", "/dev/full", good}, ExitUsage},
		{"nothing to check", []string{t.TempDir()}, ExitUsage},
		{"nothing to check, allowed", []string{"--allow-empty", t.TempDir()}, ExitOK},
		{"help", []string{"--help"}, ExitOK},
		{"version", []string{"--version"}, ExitOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, "", c.args...)
			if c.want >= 0 && code != c.want {
				t.Errorf("ccvet %v: exit %d, want %d; stderr: %s", c.args, code, c.want, stderr)
			}
			if code == ExitUsage && strings.Count(strings.TrimSpace(stderr), "\n") > 0 && !strings.Contains(stderr, "Usage") {
				t.Errorf("usage error should be one line, got %q", stderr)
			}
		})
	}
}

// hugeBaseline is a sparse file larger than baseline.MaxBytes.
func hugeBaseline(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(257 << 20); err != nil {
		t.Fatal(err)
	}
	return p
}

// panicWriter fails the way a bug would.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("boom") }

// TestInternalErrorExit: a bug (here, a panic while printing) exits 3 with
// the error on standard error, never 0.
func TestInternalErrorExit(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	var stderr bytes.Buffer
	code := Main([]string{filepath.Join(fixtures, "invalid-json", "bad")}, strings.NewReader(""), panicWriter{}, &stderr)
	if code != ExitInternal || !strings.Contains(stderr.String(), "internal error: boom") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestUnreadableRootExit: a root that cannot be listed exits 2, even with
// --exit-zero.
func TestUnreadableRootExit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestUnreadableRootExit skipped: needs Unix permissions (on Windows a mode of 0 does not stop reading)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := filepath.Join(t.TempDir(), "locked")
	if err := os.Mkdir(dir, 0o000); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chmod(dir, 0o755) }()
	if _, err := os.ReadDir(dir); err == nil {
		// root lists a folder of mode 000; a container's root often cannot
		// list another process's map_files.
		dir = "/proc/1/map_files"
		if _, err := os.ReadDir(dir); err == nil || os.IsNotExist(err) {
			t.Skip("no folder here that this user cannot list")
		}
	}
	for _, args := range [][]string{{dir}, {"--exit-zero", dir}} {
		if _, stderr, code := run(t, "", args...); code != ExitUsage {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// TestNoHomeWithoutTerminal: a run without PATH whose standard input is not
// a terminal (a pre-commit hook whose args replaced the folder), or with CI
// set, never reads the home data folder, even one that exists.
func TestNoHomeWithoutTerminal(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CI", "")
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(fixtures, "invalid-json", "bad"))
	for _, args := range [][]string{{}, {"--fail-on", "warning"}, {"stats"}} {
		out, stderr, code := run(t, "", args...)
		if code != ExitUsage || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "name the folder to check") {
			t.Errorf("ccvet %v without a terminal: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	// CI set refuses even on a terminal.
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("CI", "true")
	if interactive(f) {
		t.Errorf("CI=true: interactive")
	}
}

func TestDefaultRoot(t *testing.T) {
	defer func(was func(io.Reader) bool) { interactive = was }(interactive)
	interactive = func(io.Reader) bool { return true } // as on a terminal
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	_, stderr, code := run(t, "")
	if code != ExitUsage || !strings.Contains(stderr, "~/.claude") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("missing ~/.claude: exit %d, stderr %q", code, stderr)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "elsewhere"))
	_, stderr, code = run(t, "")
	if code != ExitUsage || !strings.Contains(stderr, "elsewhere") {
		t.Fatalf("missing CLAUDE_CONFIG_DIR: exit %d, stderr %q", code, stderr)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(fixtures, "invalid-json", "bad"))
	out, _, code := run(t, "", "-f", "json")
	if code != ExitFindings || !strings.Contains(out, `"invalid-json"`) {
		t.Fatalf("CLAUDE_CONFIG_DIR root: exit %d\n%s", code, out)
	}
}

func TestStdin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "invalid-json", "bad", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, string(data), "--stdin-filename", "exported/x.jsonl", "-")
	if code != ExitFindings || !strings.Contains(out, "exported/x.jsonl:6:") {
		t.Fatalf("stdin: exit %d\n%s", code, out)
	}
}

// TestDeterministic checks that parallelism never changes the report.
func TestDeterministic(t *testing.T) {
	args := []string{"-f", "json", "--exit-zero", "../../testdata"}
	first, _, _ := run(t, "", append([]string{"-j", "1"}, args...)...)
	for _, j := range []string{"2", "8", "0"} {
		for i := 0; i < 3; i++ {
			got, _, _ := run(t, "", append([]string{"-j", j}, args...)...)
			if got != first {
				t.Fatalf("-j %s gives a different report than -j 1", j)
			}
		}
	}
}

// TestReadOnly proves that a run changes no byte, mode or modification time
// of what it checks.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "../../testdata", dir)
	type state struct {
		sum   [32]byte
		mode  fs.FileMode
		mtime time.Time
	}
	snapshot := func() map[string]state {
		m := map[string]state{}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			info, _ := os.Lstat(p)
			s := state{mode: info.Mode(), mtime: info.ModTime()}
			if info.Mode().IsRegular() {
				b, _ := os.ReadFile(p)
				s.sum = sha256.Sum256(b)
			}
			m[p] = s
			return nil
		})
		return m
	}
	before := snapshot()
	for _, f := range []string{"text", "json", "sarif"} {
		run(t, "", "-f", f, "--enable", "timestamp-order,unknown-field", dir)
	}
	after := snapshot()
	if len(before) != len(after) {
		t.Fatalf("the run created or removed files: %d before, %d after", len(before), len(after))
	}
	for p, b := range before {
		if a := after[p]; a != b {
			t.Errorf("%s changed: %+v -> %+v", p, b, a)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 { // copied as links (the unfollowed-link fixture)
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTextEscapesControlCharacters: transcript content never reaches the
// terminal raw.
func TestTextEscapesControlCharacters(t *testing.T) {
	dir := t.TempDir()
	line := `{"parentUuid":null,"type":"\u001b[31mevil\u001b]0;title\u0007","uuid":"u1"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "x\x1b[2J.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := run(t, "", "--color", "never", dir)
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("raw control characters in text output: %q", out)
	}
	if !strings.Contains(out, `\x1b`) && !strings.Contains(out, `\u001b`) {
		t.Fatalf("escaped form missing: %q", out)
	}
}

func TestOversizedLine(t *testing.T) {
	dir := t.TempDir()
	big := `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"` +
		strings.Repeat("x", 11<<20) + `"},"uuid":"00000000-0000-4000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := runJSON(t, "--enable", "oversized", dir)
	found := false
	for _, f := range out.Findings {
		if f.Rule == "oversized" && f.Line == 1 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no oversized finding: %+v", out.Findings)
	}
}

func TestUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestUnreadable skipped: needs Unix permissions (on Windows a mode of 0 does not stop reading)")
	}
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "locked.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "locked-dir")
	if err := os.Mkdir(sub, 0o000); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chmod(sub, 0o755) }()
	out, _, _ := runJSON(t, dir)
	n := 0
	for _, f := range out.Findings {
		if f.Rule == "unreadable" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("want 2 unreadable findings, got %+v", out.Findings)
	}
}

func TestRulesCommand(t *testing.T) {
	out, _, code := run(t, "", "rules")
	if code != 0 || !strings.Contains(out, "invalid-json") || !strings.Contains(out, "SEVERITY") {
		t.Fatalf("rules: %d\n%s", code, out)
	}
	out, _, code = run(t, "", "rules", "--format", "json")
	if code != 0 || !strings.HasPrefix(out, "[") {
		t.Fatalf("rules json: %d\n%s", code, out)
	}
}

func TestSchemaCommand(t *testing.T) {
	out, _, code := run(t, "", "schema")
	if code != 0 || !strings.Contains(out, "user") {
		t.Fatalf("schema list: %d\n%s", code, out)
	}
	out, _, code = run(t, "", "schema", "user")
	if code != 0 || !strings.Contains(out, "$schema") {
		t.Fatalf("schema user: %d\n%s", code, out)
	}
	_, _, code = run(t, "", "schema", "no-such-type")
	if code != ExitUsage {
		t.Fatalf("schema unknown: exit %d", code)
	}
}
