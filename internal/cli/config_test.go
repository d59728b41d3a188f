package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/config"
)

// cfgIsolate points HOME and CLAUDE_CONFIG_DIR at temporary folders and makes a
// temporary folder, holding .git (so the search for .ccvet.yaml stops
// there), the current folder. It returns that folder.
func cfgIsolate(t *testing.T) string {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

func cfgWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyFixture copies a rule fixture's session.jsonl into dir/name and
// returns its lines.
func copyFixture(t *testing.T, fixture, dst string) []string {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	cfgWrite(t, dst, string(data))
	return strings.SplitAfter(string(data), "\n")
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestConfigFile(t *testing.T) {
	warn := abs(t, filepath.Join(fixtures, "blank-line", "bad")) // one blank-line warning
	dir := cfgIsolate(t)

	// No file: defaults.
	if _, _, code := run(t, "", "--fail-on", "warning", warn); code != ExitFindings {
		t.Errorf("no config: exit %d", code)
	}
	// The file found in the current folder sets fail-on and a rule's severity.
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "fail-on: warning\nrules:\n  blank-line: note\n")
	out, _, _ := runJSON(t, warn)
	if len(out.Findings) != 1 || out.Findings[0].Severity != "note" {
		t.Errorf("rules: blank-line: note not applied: %+v", out.Findings)
	}
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "fail-on: warning\n")
	if _, _, code := run(t, "", warn); code != ExitFindings {
		t.Errorf("fail-on from the file: exit %d", code)
	}
	// Flags win over the file; --no-config ignores it.
	if _, _, code := run(t, "", "--fail-on", "error", warn); code != ExitOK {
		t.Errorf("--fail-on error over the file: exit %d", code)
	}
	if _, _, code := run(t, "", "--no-config", warn); code != ExitOK {
		t.Errorf("--no-config: exit %d", code)
	}
	// Found from a subfolder too.
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	if _, _, code := run(t, "", warn); code != ExitFindings {
		t.Errorf("config from a parent folder: exit %d", code)
	}
	// --disable on the command line wins over the file's rules.
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "rules:\n  blank-line: error\n")
	if _, _, code := run(t, "", warn); code != ExitFindings {
		t.Errorf("blank-line: error: exit %d", code)
	}
	if _, _, code := run(t, "", "--disable", "blank-line", warn); code != ExitOK {
		t.Errorf("--disable over the file: exit %d", code)
	}
}

func TestConfigStrictFlagWins(t *testing.T) {
	bad := abs(t, filepath.Join(fixtures, "unknown-field", "bad"))
	dir := cfgIsolate(t)
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "strict: false\nrules:\n  unknown-field: off\n")
	if _, _, code := run(t, "", bad); code != ExitOK {
		t.Errorf("file: exit %d", code)
	}
	if _, _, code := run(t, "", "--strict", bad); code != ExitFindings {
		t.Errorf("--strict over the file: exit %d", code)
	}
}

// A reader-version the configuration sets is named by its file in the
// note about an old reader, not as the --reader-version flag; the flag,
// which wins, is named as the flag.
func TestConfigReaderVersionNote(t *testing.T) {
	good := abs(t, filepath.Join(fixtures, "blank-line", "good"))
	dir := cfgIsolate(t)
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "reader-version: 1.0.0\n")
	if _, stderr, _ := run(t, "", good); !strings.Contains(stderr, "ccvet: .ccvet.yaml: reader-version 1.0.0: Claude Code 1.0.0 is older") {
		t.Errorf("from the file: stderr %q", stderr)
	}
	if _, stderr, _ := run(t, "", "--reader-version", "2.1.100", good); !strings.Contains(stderr, "ccvet: --reader-version 2.1.100: Claude Code 2.1.100 is older") {
		t.Errorf("from the flag: stderr %q", stderr)
	}
}

func TestConfigErrors(t *testing.T) {
	good := abs(t, filepath.Join(fixtures, "blank-line", "good"))
	dir := cfgIsolate(t)
	cases := []struct{ file, want string }{
		{"exlude: [x]\n", `ccvet: .ccvet.yaml:1:1: unknown key "exlude" in the configuration (did you mean "exclude"?)`},
		{"rules:\n  blank-line: loud\n", `ccvet: .ccvet.yaml:2:15: rules: blank-line: want on, off, error, warning or note, got "loud"`},
		{"ignore:\n  - path: a\n    rules: [schema]\n", `ccvet: .ccvet.yaml:2:5: an ignore needs reason`},
	}
	for _, c := range cases {
		cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), c.file)
		_, stderr, code := run(t, "", good)
		if code != ExitUsage || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.file, code, stderr, c.want)
		}
	}
	if _, stderr, code := run(t, "", "--config", "nope.yaml", good); code != ExitUsage || !strings.Contains(stderr, "nope.yaml: cannot read") {
		t.Errorf("missing --config: exit %d, %q", code, stderr)
	}
	if _, _, code := run(t, "", "--config", "x.yaml", "--no-config", good); code != ExitUsage {
		t.Errorf("--config with --no-config: exit %d", code)
	}
}

func TestConfigExcludeAndIgnore(t *testing.T) {
	src := abs(t, filepath.Join(fixtures, "blank-line", "bad", "session.jsonl"))
	dir := cfgIsolate(t)
	store := filepath.Join(dir, "store")
	copyFixture(t, src, filepath.Join(store, "old", "session.jsonl"))
	copyFixture(t, src, filepath.Join(store, "new", "session.jsonl"))
	out, _, _ := runJSON(t, "--no-config", "store")
	if len(out.Findings) != 2 {
		t.Fatalf("want a blank-line finding in each copy: %+v", out.Findings)
	}
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "exclude: [old]\n")
	out, _, _ = runJSON(t, "store")
	if len(out.Findings) != 1 || out.Findings[0].Path != "new/session.jsonl" || out.Summary["files"] != 1 || out.Summary["skipped"] != 1 {
		t.Errorf("exclude old: %+v %v", out.Findings, out.Summary)
	}
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), `ignore:
  - path: "**/session.jsonl"
    rules: [blank-line]
    reason: kept on purpose
  - path: gone/**
    rules: [blank-line]
    reason: was deleted
`)
	out, _, _ = runJSON(t, "store")
	if len(out.Findings) != 1 || out.Findings[0].Rule != "unused-ignore" || out.Findings[0].Path != ".ccvet.yaml" || out.Findings[0].Line != 5 {
		t.Errorf("ignore: %+v", out.Findings)
	}
	out, _, _ = runJSON(t, "--disable", "unused-ignore", "store")
	if len(out.Findings) != 0 {
		t.Errorf("--disable unused-ignore: %+v", out.Findings)
	}
}

// TestConfigExcludeMatchedNothing: an exclude pattern that matches no file
// (a typo, a folder since removed) was silent. A run over folders names
// each such pattern on standard error, at its line in the configuration;
// the report on standard output and the exit status are those of the run
// without the note. -q drops it; a run given files (the per-file hook)
// cannot tell and says nothing.
func TestConfigExcludeMatchedNothing(t *testing.T) {
	src := abs(t, filepath.Join(fixtures, "blank-line", "bad", "session.jsonl"))
	dir := cfgIsolate(t)
	store := filepath.Join(dir, "store")
	copyFixture(t, src, filepath.Join(store, "old", "session.jsonl"))
	copyFixture(t, src, filepath.Join(store, "new", "session.jsonl"))
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "exclude:\n  - old\n  - \"olld/**\"\n  - agent-*.jsonl\n")
	_, want, _, wantCode := runJSONStderr(t, "--config", ".ccvet.yaml", "store")
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "exclude:\n  - old\n")
	_, got, errOut, code := runJSONStderr(t, "store")
	if !bytes.Equal(got, want) || code != wantCode {
		t.Fatalf("the one exclude that matches gives another report than all three")
	}
	if strings.Contains(errOut, "matched nothing") {
		t.Errorf("an exclude that matched was noted: %s", errOut)
	}
	cfgWrite(t, filepath.Join(dir, ".ccvet.yaml"), "exclude:\n  - old\n  - \"olld/**\"\n  - agent-*.jsonl\n")
	_, got, errOut, code = runJSONStderr(t, "store")
	if !bytes.Equal(got, want) || code != wantCode {
		t.Errorf("the note changed the report or the exit status (%d, want %d)", code, wantCode)
	}
	for _, line := range []string{
		`ccvet: .ccvet.yaml:3:5: exclude pattern "olld/**" matched nothing`,
		`ccvet: .ccvet.yaml:4:5: exclude pattern "agent-*.jsonl" matched nothing`,
	} {
		if !strings.Contains(errOut, line+"\n") {
			t.Errorf("stderr lacks %q:\n%s", line, errOut)
		}
	}
	if strings.Contains(errOut, `"old"`) {
		t.Errorf("the pattern that matched was noted:\n%s", errOut)
	}
	if _, _, errOut, _ := runJSONStderr(t, "-q", "store"); strings.Contains(errOut, "matched nothing") {
		t.Errorf("-q: %s", errOut)
	}
	if _, _, errOut, _ := runJSONStderr(t, filepath.Join("store", "new", "session.jsonl")); strings.Contains(errOut, "matched nothing") {
		t.Errorf("a run given a file: %s", errOut)
	}
}

// TestBaseline is the story of a baseline: written over a damaged transcript,
// it hides every finding after unrelated edits shift the lines, lets a new
// fault through, and counts the recorded findings that were fixed.
func TestBaseline(t *testing.T) {
	src := abs(t, filepath.Join(fixtures, "unknown-type", "bad", "session.jsonl"))
	dir := cfgIsolate(t)
	session := filepath.Join(dir, "s", "session.jsonl")
	lines := copyFixture(t, src, session)
	base := filepath.Join(dir, "baseline.json")

	out, _, code := runJSON(t, "--write-baseline", base, "s")
	if code != ExitOK || len(out.Findings) != 0 || out.Summary["baselined"] != 3 || out.Summary["baselineUnmatched"] != 0 {
		t.Fatalf("--write-baseline: exit %d, %+v %v", code, out.Findings, out.Summary)
	}
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Findings []struct {
			Count int `json:"count"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &b); err != nil || len(b.Findings) != 3 {
		t.Fatalf("baseline file: %v\n%s", err, data)
	}

	// Unrelated lines above the damage: every line number moves.
	shifted := append([]string{lines[0], lines[0], lines[0]}, lines[1:]...)
	cfgWrite(t, session, strings.Join(shifted, ""))
	if plain, _, _ := runJSON(t, "s"); len(plain.Findings) != 3 || plain.Findings[0].Line == 0 {
		t.Fatalf("without the baseline: %+v", plain.Findings)
	}
	out, _, code = runJSON(t, "--baseline", base, "s")
	if code != ExitOK || len(out.Findings) != 0 || out.Summary["baselineUnmatched"] != 0 {
		t.Errorf("shifted lines: exit %d, %+v %v", code, out.Findings, out.Summary)
	}
	_, stderr, _ := run(t, "", "--baseline", base, "s")
	if !strings.Contains(stderr, "hid 3 findings; 0 of its findings match nothing now") {
		t.Errorf("text mode stderr: %q", stderr)
	}

	// A new fault: exactly it is reported.
	faulty := append([]string{}, shifted...)
	faulty = append(faulty[:6], append([]string{"\n"}, faulty[6:]...)...)
	cfgWrite(t, session, strings.Join(faulty, ""))
	out, _, _ = runJSON(t, "--baseline", base, "s")
	if len(out.Findings) != 1 || out.Findings[0].Rule != "blank-line" {
		t.Errorf("new fault: %+v", out.Findings)
	}

	// One fault fixed: one baseline finding matches nothing.
	fixed := strings.Replace(strings.Join(shifted, ""), `"type":"txt"`, `"type":"text"`, 1)
	cfgWrite(t, session, fixed)
	out, _, _ = runJSON(t, "--baseline", base, "s")
	if len(out.Findings) != 0 || out.Summary["baselineUnmatched"] != 1 || out.Summary["baselined"] != 2 {
		t.Errorf("fixed fault: %+v %v", out.Findings, out.Summary)
	}
	_, stderr, _ = run(t, "", "--baseline", base, "s")
	if !strings.Contains(stderr, "1 of its findings match nothing now") {
		t.Errorf("text mode stderr: %q", stderr)
	}
}

// TestBaselineCountsDuplicates: identical fingerprints are counted.
func TestBaselineCountsDuplicates(t *testing.T) {
	src := abs(t, filepath.Join(fixtures, "blank-line", "good", "session.jsonl"))
	dir := cfgIsolate(t)
	session := filepath.Join(dir, "s", "session.jsonl")
	lines := copyFixture(t, src, session)
	with := func(blanks ...int) string {
		var b strings.Builder
		for i, l := range lines {
			for _, at := range blanks {
				if at == i {
					b.WriteString("\n")
				}
			}
			b.WriteString(l)
		}
		return b.String()
	}
	base := filepath.Join(dir, "baseline.json")
	cfgWrite(t, session, with(2, 5))
	if out, _, _ := runJSON(t, "--write-baseline", base, "s"); out.Summary["baselined"] != 2 {
		t.Fatalf("write: %v", out.Summary)
	}
	if data, _ := os.ReadFile(base); !strings.Contains(string(data), `"count": 2`) {
		t.Errorf("two identical findings not counted:\n%s", data)
	}
	cfgWrite(t, session, with(2, 5, 8))
	if out, _, _ := runJSON(t, "--baseline", base, "s"); len(out.Findings) != 1 {
		t.Errorf("a third blank line: %+v", out.Findings)
	}
	cfgWrite(t, session, with(5))
	if out, _, _ := runJSON(t, "--baseline", base, "s"); len(out.Findings) != 0 || out.Summary["baselineUnmatched"] != 1 {
		t.Errorf("one blank line left: %+v %v", out.Findings, out.Summary)
	}
}

func TestBaselineErrors(t *testing.T) {
	good := abs(t, filepath.Join(fixtures, "blank-line", "good"))
	dir := cfgIsolate(t)
	cfgWrite(t, filepath.Join(dir, "b.json"), "{}")
	for _, args := range [][]string{
		{"--baseline", "nope.json", good},
		{"--baseline", "b.json", good},
		{"--baseline", "b.json", "--write-baseline", "c.json", good},
		{"--write-baseline", filepath.Join(dir, "no", "such", "dir.json"), good},
	} {
		if _, stderr, code := run(t, "", args...); code != ExitUsage {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestReadmeConfigExample keeps the full .ccvet.yaml example of
// docs/configuration.md valid and complete.
func TestReadmeConfigExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "A full example:\n\n```yaml\n")
	if !ok {
		t.Fatal("docs/configuration.md lacks the full .ccvet.yaml example")
	}
	example, _, _ := strings.Cut(rest, "```")
	c, err := config.Parse(".ccvet.yaml", []byte(example))
	if err != nil {
		t.Fatalf("the example does not load: %v", err)
	}
	if c.Strict == nil || c.FailOn == nil || len(c.Rules) == 0 || len(c.Exclude) == 0 || len(c.Ignores) == 0 {
		t.Errorf("the example should show every key: %+v", c)
	}
}

// A path-encoding-collision finding counts the sessions launched in the
// other directory ("with 1 session launched in …"): one launched there
// later changes its message, not its fingerprint, so a baseline written
// before still hides it.
func TestBaselineCollisionCountGrows(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	root := t.TempDir()
	copyTree(t, filepath.Join(fixtures, "path-encoding-collision", "bad"), root)
	base := filepath.Join(t.TempDir(), "b.json")
	count := func(args ...string) (int, string) {
		out, errOut, _ := run(t, "", append([]string{"--no-config", "-f", "json"}, args...)...)
		var doc struct {
			Findings []struct{ Rule, Message string } `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		n, msg := 0, ""
		for _, f := range doc.Findings {
			if f.Rule == "path-encoding-collision" {
				n, msg = n+1, f.Message
			}
		}
		return n, msg
	}
	if n, msg := count(root); n != 1 || !strings.Contains(msg, "with 1 session launched") {
		t.Fatalf("the fixture: %d findings, %q", n, msg)
	}
	count("--write-baseline", base, root)
	// A second session launched in the other directory (the first launched).
	dir := filepath.Join(root, "projects", "-home-jenkins-Personal-AI-Infrastructure")
	old, sid := "e8c742ee-724b-47ba-9cca-c2db071e9da4", "e8c742ee-724b-47ba-9cca-c2db071e9da5"
	b, err := os.ReadFile(filepath.Join(dir, old+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// New entry uuids too: only the session's launch is new.
	b = bytes.ReplaceAll(b, []byte(old), []byte(sid))
	b = regexp.MustCompile(`"(uuid|parentUuid)":"([0-9a-f]{8})`).ReplaceAll(b, []byte(`"$1":"0000000a`))
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if n, msg := count(root); n != 1 || !strings.Contains(msg, "with 2 sessions launched") {
		t.Fatalf("with a second session: %d findings, %q", n, msg)
	}
	if n, _ := count("--baseline", base, root); n != 0 {
		t.Errorf("the baseline written with one session no longer hides the finding")
	}
}

// TestBaselineCountsCrossOne: a finding whose message words a count that
// grows with its file ("1 prompt", "2 prompts") keeps its fingerprint when
// the count passes 1, so a baseline written before still hides it. The
// numbers were left out of the fingerprint, the word after them was not
// (path-encoding-collision: TestBaselineCollisionCountGrows).
func TestBaselineCountsCrossOne(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	lines := func(t *testing.T, p string) []string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	mismatch := func(uuid, parent string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/home/dev/app",` +
			`"sessionId":"bbbbbbbb-1111-4222-8333-444444444444","version":"2.0.76","type":"user",` +
			`"message":{"role":"user","content":"hi"},"uuid":"` + uuid + `","timestamp":"2025-12-30T12:48:00.100Z"}` + "\n"
	}
	for _, c := range []struct {
		rule, file string
		before     func(t *testing.T) string // the file's bytes with a count of 1
		after      func(t *testing.T) string // grown to 2
		one, two   string
	}{
		{
			rule: "history-orphan", file: "history.jsonl",
			before: func(t *testing.T) string {
				l := lines(t, filepath.Join(fixtures, "history-orphan", "bad", "history.jsonl"))
				return strings.Join(l[1:], "") + "\n"
			},
			after: func(t *testing.T) string {
				l := lines(t, filepath.Join(fixtures, "history-orphan", "bad", "history.jsonl"))
				return strings.Join(l[1:], "") + "\n" + l[0]
			},
			one: "(1 prompt in", two: "(2 prompts in",
		},
		{
			rule: "duplicate-tool-use-id", file: "projects/-home-dev-app/5b0f3c2e-8a41-4d6e-9b7a-2c1d0e9f8a31.jsonl",
			before: func(t *testing.T) string {
				return strings.Join(lines(t, filepath.Join(fixtures, "duplicate-tool-use-id", "bad-gateway-fragments", "session.jsonl"))[:3], "")
			},
			after: func(t *testing.T) string {
				return strings.Join(lines(t, filepath.Join(fixtures, "duplicate-tool-use-id", "bad-gateway-fragments", "session.jsonl"))[:4], "")
			},
			one: "(1 failed result:", two: "(2 failed results:",
		},
		{
			rule: "session-mismatch", file: "projects/-home-dev-app/aaaaaaaa-1111-4222-8333-444444444444.jsonl",
			before: func(*testing.T) string { return mismatch("00000001-1111-4222-8333-444444444441", "") },
			after: func(*testing.T) string {
				return mismatch("00000001-1111-4222-8333-444444444441", "") +
					mismatch("00000002-1111-4222-8333-444444444442", "00000001-1111-4222-8333-444444444441")
			},
			one: "(aaaaaaaa-1111-4222-8333-444444444444); no entry", two: "; 2 consecutive entries carry it",
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			root := t.TempDir()
			if c.rule == "history-orphan" {
				copyTree(t, filepath.Join(fixtures, "history-orphan", "bad"), root)
			}
			base := filepath.Join(t.TempDir(), "b.json")
			count := func(args ...string) (int, string) {
				out, errOut, _ := run(t, "", append([]string{"--no-config", "-f", "json"}, args...)...)
				var doc struct {
					Findings []struct{ Rule, Message string } `json:"findings"`
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, errOut)
				}
				n, msg := 0, ""
				for _, f := range doc.Findings {
					if f.Rule == c.rule {
						n, msg = n+1, f.Message
					}
				}
				return n, msg
			}
			cfgWrite(t, filepath.Join(root, c.file), c.before(t))
			n1, msg := count(root)
			if n1 == 0 || !strings.Contains(msg, c.one) {
				t.Fatalf("count 1: %d findings, %q", n1, msg)
			}
			count("--write-baseline", base, root)
			cfgWrite(t, filepath.Join(root, c.file), c.after(t))
			if n, msg := count(root); n != n1 || !strings.Contains(msg, c.two) {
				t.Fatalf("count 2: %d findings (%d before), %q", n, n1, msg)
			}
			if n, _ := count("--baseline", base, root); n != 0 {
				t.Errorf("the baseline written at a count of 1 no longer hides the finding")
			}
		})
	}
}
