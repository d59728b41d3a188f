package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

const full = `# ccvet configuration
strict: true
fail-on: warning
rules:
  timestamp-order: on
  unknown-field: note
  dangling-leaf: off
exclude:
  - "projects/-tmp-*/**"
  - agent-*.jsonl
ignore:
  - path: projects/-home-me-old/**
    rules: [orphan-parent, dangling-leaf]
    reason: parents lost by Claude Code 1.0
  - path: history.jsonl
    rules: history-orphan
    reason: sessions deleted on purpose
`

func TestParseFull(t *testing.T) {
	c, err := Parse(".ccvet.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Strict == nil || !*c.Strict {
		t.Error("strict not read")
	}
	if c.FailOn == nil || *c.FailOn != finding.Warning {
		t.Error("fail-on not read")
	}
	en, sev := c.Enabled(), c.Severity()
	if !en["timestamp-order"] || !en["unknown-field"] || en["dangling-leaf"] {
		t.Errorf("enabled = %v", en)
	}
	if _, ok := en["schema"]; ok {
		t.Error("a rule the file does not name must keep its default")
	}
	if sev["unknown-field"] != finding.Note || len(sev) != 1 {
		t.Errorf("severity = %v", sev)
	}
	if len(c.Exclude) != 2 || len(c.Ignores) != 2 {
		t.Fatalf("exclude %d, ignores %d", len(c.Exclude), len(c.Ignores))
	}
	ig := c.Ignores[1]
	if ig.Line != 15 || ig.Column != 5 || ig.Rules[0] != "history-orphan" || ig.Reason != "sessions deleted on purpose" {
		t.Errorf("ignore = %+v", ig)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "---\n", "{}\n", "rules:\n#  schema: off\nexclude:\nignore: ~\n"} {
		c, err := Parse("x.yaml", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if c.Strict != nil || c.FailOn != nil || len(c.Rules)+len(c.Exclude)+len(c.Ignores) != 0 {
			t.Errorf("%q: not empty: %+v", src, c)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"strict: true\nexlude: [a]\n", `cfg.yaml:2:1: unknown key "exlude" in the configuration (did you mean "exclude"?)`},
		{"colour: red\n", `cfg.yaml:1:1: unknown key "colour" in the configuration (want strict, fail-on, reader-version, rules, exclude, ignore)`},
		{"strict: maybe\n", `cfg.yaml:1:9: strict: want true or false, got "maybe"`},
		{"fail-on: off\n", `cfg.yaml:1:10: fail-on: want error, warning or note, got "off"`},
		{"reader-version: 9.9\n", `cfg.yaml:1:17: reader-version: want a version such as 2.1.330, got "9.9"`},
		{"rules:\n  no-such-rule: on\n", `cfg.yaml:2:3: unknown key "no-such-rule" in rules`},
		{"rules:\n  schema: loud\n", `cfg.yaml:2:11: rules: schema: want on, off, error, warning or note, got "loud"`},
		{"rules: [schema]\n", `cfg.yaml:1:8: rules must be a mapping`},
		{"exclude: [\"a/**b\"]\n", "cfg.yaml:1:11: exclude: pattern \"a/**b\": `**` must be a whole path element"},
		{"exclude: [\"[a\"]\n", `cfg.yaml:1:11: exclude: pattern "[a": malformed`},
		{"ignore:\n  - path: x\n    rules: [schema]\n", `cfg.yaml:2:5: an ignore needs reason`},
		{"ignore:\n  - path: x\n    rules: [schema]\n    reason: \"  \"\n", `cfg.yaml:2:5: an ignore needs reason`},
		{"ignore:\n  - path: x\n    rules: [nope]\n    reason: r\n", `cfg.yaml:3:13: ignore: rules: unknown rule "nope"`},
		{"ignore:\n  - path: x\n    rule: [schema]\n    reason: r\n", `cfg.yaml:3:5: unknown key "rule" in an ignore (did you mean "rules"?)`},
		{"strict: true\nstrict: false\n", `cfg.yaml:2:1: key "strict" appears twice in the configuration (first on line 1)`},
		{"strict: [true\n", `cfg.yaml:`},
		{"a: b\n---\nc: d\n", `cfg.yaml:2:1: a second YAML document`},
		{"- a\n", `cfg.yaml:1:1: the configuration must be a mapping`},
	}
	for _, c := range cases {
		_, err := Parse("cfg.yaml", []byte(c.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", c.src, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %q\nwant %q…", c.src, err.Error(), c.want)
		}
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		pat string
		yes []string
		no  []string
	}{
		{"projects/**/agent-*.jsonl", []string{"projects/agent-1.jsonl", "projects/a/b/agent-x.jsonl"}, []string{"projects/a/session.jsonl", "other/agent-1.jsonl"}},
		{"agent-*.jsonl", []string{"agent-1.jsonl", "a/b/agent-2.jsonl"}, []string{"agent-1.json", "agent-1.jsonl.bak"}},
		{"projects/-home-me-old", []string{"projects/-home-me-old", "projects/-home-me-old/s.jsonl"}, []string{"projects/-home-me-older/s.jsonl"}},
		{"projects/-tmp-*/", []string{"projects/-tmp-x/a.jsonl"}, []string{"projects/-home/a.jsonl"}},
		{"./a/*.jsonl", []string{"a/x.jsonl", "./a/x.jsonl"}, []string{"b/x.jsonl"}},
		{"**/*.jsonl", []string{"x.jsonl", "/abs/x.jsonl"}, []string{"x.json"}},
		{"a/**/**/b", []string{"a/b", "a/x/y/b"}, []string{"b"}},
	}
	for _, c := range cases {
		g, err := NewGlob(c.pat)
		if err != nil {
			t.Fatalf("%s: %v", c.pat, err)
		}
		for _, p := range c.yes {
			if !g.Match(p) {
				t.Errorf("%q should match %q", c.pat, p)
			}
		}
		for _, p := range c.no {
			if g.Match(p) {
				t.Errorf("%q should not match %q", c.pat, p)
			}
		}
	}
}

func TestFilter(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding.Finding{
		{Rule: "orphan-parent", Path: "projects/-home-me-old/s.jsonl", Line: 3},
		{Rule: "schema", Path: "projects/-home-me-old/s.jsonl", Line: 4},
		{Rule: "schema", Path: "projects/-tmp-x/s.jsonl", Line: 1},
		{Rule: "schema", Path: "projects/p/agent-1.jsonl", Line: 1},
	}
	on := func(string) bool { return true }
	kept, unused := c.Filter(fs, on, nil)
	if len(kept) != 1 || kept[0].Line != 4 {
		t.Errorf("kept = %+v", kept)
	}
	if len(unused) != 1 || unused[0].Line != 15 || unused[0].Rule != "unused-ignore" || unused[0].Path != "cfg.yaml" {
		t.Errorf("unused = %+v", unused)
	}
	// With history-orphan off, its ignore cannot be called unused.
	_, unused = c.Filter(fs, func(id string) bool { return id != "history-orphan" }, nil)
	if len(unused) != 0 {
		t.Errorf("unused with the rule off = %+v", unused)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("strict: true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Above the repository: not found, .git stops the walk.
	write(filepath.Join(root, FileName))
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(deep, ""); err != nil || got != "" {
		t.Errorf("Find stopped at .git: got %q, %v", got, err)
	}
	write(filepath.Join(repo, "a", FileName))
	if got, _ := Find(deep, ""); got != filepath.Join(repo, "a", FileName) {
		t.Errorf("Find = %q", got)
	}
	// Home stops the walk too.
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find(filepath.Join(home, "x"), home); got != "" {
		t.Errorf("Find crossed home: %q", got)
	}
	if got, _ := Find(filepath.Join(home, "x"), ""); got != filepath.Join(root, FileName) {
		t.Errorf("Find without home = %q", got)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p, FileName); err != nil {
		t.Error(err)
	}
	if _, err := Load(filepath.Join(dir, "nope.yaml"), "nope.yaml"); err == nil || !strings.HasPrefix(err.Error(), "nope.yaml: cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

// TestGlobManyDoubleStars: several ** over a deep path are decided once per
// pair of positions (this took seconds when every split was retried).
func TestGlobManyDoubleStars(t *testing.T) {
	deep := strings.Repeat("d/", 400) + "x.jsonl"
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"**/a/**/b/**/c/**/zzz", false},
		{"**/d/**/d/**/d/**/x.jsonl", true},
		{"d/**/d/**/d/**/y.jsonl", false},
	} {
		g, err := NewGlob(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(deep); got != c.want {
			t.Errorf("%s: %v, want %v", c.pattern, got, c.want)
		}
	}
}
