package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/ccvet/ccvet/internal/config"
)

// TestDocExamples runs every example of README.md and docs/*.md (but the
// generated docs/rules.md and docs/reader-behaviour.md). Every fenced block
// says what it is by its language, and the language says how it is tested
// (docs/development.md, "Examples in the docs", is the user-facing copy):
//
//   - console: a terminal session. Each "$ " line (continued by a trailing
//     backslash; a "> " before the next line is the shell's prompt, not
//     typed) is run by sh in the document's sandbox, and what it prints
//     (standard output and error together) must match the lines below it:
//     "…" matches any text within a line, a line that is only "…" any number
//     of lines (none too). A command exits 0 unless its comment says "exits
//     N". `go run ./cmd/ccvet` runs the ccvet built for the test, and adds
//     "exit status N" as go run does.
//   - sh: commands. Each line that starts with ccvet (or `go run ./cmd/ccvet`,
//     cp, mkdir, touch) is run in the sandbox and must exit 0, or the status
//     its comment names; its output is not compared. Other lines (go test, go
//     install, git, pre-commit, bash .ci/…, bench/…, scripts/…, VAR=… go …)
//     are commands run from the clone (.ci/newcomer runs the README's, .ci/run
//     the rest but scripts/new-version.sh): they must start with one of
//     those, and are not run here.
//   - yaml: a .pre-commit-config.yaml (it has `repos:`) must name hooks of
//     .pre-commit-hooks.yaml; a GitHub workflow (`jobs:`) has each `run:` that
//     starts with ccvet run in the sandbox (exit 0 or 1: never a usage error);
//     anything else is a .ccvet.yaml and must load.
//   - json: must be valid JSON (a shape; the real output is shown in console).
//   - text: quoted text (a message, a snippet of a file), not run.
//
// With -update, a console command whose example elides nothing gets the
// output ccvet prints now, written into the document (see console).
//
// A block between <!-- NAME --> markers is generated and checked by its own
// test (TestReadme). Any other language, or none, fails the test. So an
// example for a new feature is added by adding a fenced block.
//
// Each document gets a sandbox: a temporary folder holding a copy of
// testdata/ and of testdata/store as claude-data/, with HOME, CLAUDE_CONFIG_DIR
// and XDG_STATE_HOME inside it (HOME is shown as ~ in compared output), and the
// ccvet built from this checkout first on PATH. Blocks run in document order
// and share the sandbox, so one block may prepare what the next shows.
func TestDocExamples(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("ccvet: TestDocExamples skipped: the docs' examples are shell sessions (sh); run it on Linux, macOS or FreeBSD")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("ccvet: TestDocExamples skipped: no sh on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md"}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, m := range more {
		switch filepath.Base(m) {
		case "rules.md", "reader-behaviour.md": // generated, checked by their own tests
			continue
		}
		docs = append(docs, filepath.Join("docs", filepath.Base(m)))
	}
	bin := buildCcvet(t, root)
	for _, doc := range docs {
		t.Run(doc, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, doc))
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := fencedBlocks(string(data))
			if err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			sb := newSandbox(t, root, bin)
			var rewrites []fenced
			for _, b := range blocks {
				where := fmt.Sprintf("%s:%d", doc, b.line)
				switch b.lang {
				case "console":
					if body, changed := sb.console(t, where, b.body); changed {
						b.body = body
						rewrites = append(rewrites, b)
					}
				case "sh":
					sb.sh(t, where, b.body)
				case "yaml":
					sb.yaml(t, where, b.body)
				case "json":
					var v any
					if err := json.Unmarshal([]byte(b.body), &v); err != nil {
						t.Errorf("%s: the json block is not JSON: %v", where, err)
					}
				case "text":
				default:
					t.Errorf("%s: a fenced block must say what it is (console, sh, yaml, json or text), got %q", where, b.lang)
				}
			}
			if len(rewrites) > 0 {
				if err := os.WriteFile(filepath.Join(root, doc), []byte(rewriteBlocks(string(data), rewrites)), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: -update rewrote the output of %d console block(s); check the diff", doc, len(rewrites))
			}
		})
	}
}

// rewriteBlocks puts each block's new body between its fences.
func rewriteBlocks(doc string, blocks []fenced) string {
	lines := strings.Split(doc, "\n")
	var out []string
	next := 0 // the first line of lines not yet copied
	for _, b := range blocks {
		out = append(out, lines[next:b.line]...) // up to and including the opening fence
		for _, l := range strings.Split(strings.TrimSuffix(b.body, "\n"), "\n") {
			if l != "" {
				l = strings.Repeat(" ", b.indent) + l
			}
			out = append(out, l)
		}
		next = b.end - 1 // the closing fence
	}
	return strings.Join(append(out, lines[next:]...), "\n")
}

type fenced struct {
	lang, body string
	line       int // of the opening fence
	end        int // of the closing fence
	indent     int // of the fences (a block in a list)
}

// fencedBlocks lists the fenced blocks of a Markdown document outside the
// generated regions (<!-- name --> … <!-- /name -->).
func fencedBlocks(doc string) ([]fenced, error) {
	var out []fenced
	lines := strings.Split(doc, "\n")
	generated := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := markerRe.FindStringSubmatch(l); m != nil {
			if m[1] == "" && generated == "" {
				generated = m[2]
			} else if m[1] == "/" && m[2] == generated {
				generated = ""
			}
			continue
		}
		trim := strings.TrimLeft(l, " ")
		if !strings.HasPrefix(trim, "```") {
			continue
		}
		indent := len(l) - len(trim)
		lang := strings.Fields(strings.TrimPrefix(trim, "```"))
		b := fenced{line: i + 1, indent: indent}
		if len(lang) > 0 {
			b.lang = lang[0]
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "```" {
				closed, b.end = true, i+1
				break
			}
			body = append(body, strings.TrimPrefix(lines[i], strings.Repeat(" ", indent)))
		}
		if !closed {
			return nil, fmt.Errorf("line %d: the fenced block is not closed", b.line)
		}
		if generated == "" {
			b.body = strings.Join(body, "\n") + "\n"
			out = append(out, b)
		}
	}
	return out, nil
}

var markerRe = regexp.MustCompile(`^<!-- (/?)([a-z][a-z0-9-]*) -->$`)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// buildCcvet builds cmd/ccvet from this checkout once per test binary.
func buildCcvet(t *testing.T, root string) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ccvet-examples-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "ccvet")
		cmd := exec.Command("go", "build", "-o", builtBin, "./cmd/ccvet")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/ccvet: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

type sandbox struct {
	dir, home string
	env       []string
}

func newSandbox(t *testing.T, root, bin string) *sandbox {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, d := range []string{home, filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyTreeTimes(t, filepath.Join(root, "testdata"), filepath.Join(dir, "testdata"))
	copyTreeTimes(t, filepath.Join(root, "testdata", "store"), filepath.Join(dir, "claude-data"))
	env := []string{
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"NO_COLOR=1", "TZ=UTC", "LC_ALL=C",
	}
	return &sandbox{dir: dir, home: home, env: env}
}

// copyTreeTimes is copyTree keeping modes and modification times.
func copyTreeTimes(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chtimes(dst, info.ModTime(), info.ModTime())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// exec runs one command line with sh in the sandbox: its output (standard
// output and error together) and exit status.
func (sb *sandbox) exec(t *testing.T, line string) (string, int) {
	t.Helper()
	goRun := false
	if rest, ok := strings.CutPrefix(line, "go run ./cmd/ccvet"); ok {
		line, goRun = "ccvet"+rest, true
	}
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = sb.dir
	cmd.Env = sb.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", line, err)
		}
		code = ee.ExitCode()
	}
	s := out.String()
	if goRun && code != 0 {
		s += fmt.Sprintf("exit status %d\n", code)
	}
	s = strings.ReplaceAll(s, sb.home, "~")
	return s, code
}

var exitsRe = regexp.MustCompile(`#.*\bexits? (\d+)\b`)

// wantExit is the status a command line's comment promises ("# exits 1: …"), else 0.
func wantExit(line string) int {
	if m := exitsRe.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// console runs a console block. With -update, a command whose output no
// longer matches and whose example elides nothing gets the output it
// prints now: console returns the block so rewritten, and whether it
// changed. An example with "…" is the writer's to redo (the failure shows
// the block as printed now, ready to paste); so is a changed exit status.
func (sb *sandbox) console(t *testing.T, where, body string) (string, bool) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "$ ") {
		t.Errorf("%s: a console block starts with a \"$ \" command line", where)
		return body, false
	}
	var rewritten strings.Builder
	changed := false
	// now is the block as the program prints it today, printed ready to
	// paste when any of its commands does not match (elisions are the
	// writer's to put back).
	var now strings.Builder
	failed := false
	defer func() {
		if failed {
			t.Logf("%s: the block as ccvet prints it now (put back the … that hide what varies):\n```console\n%s```", where, now.String())
		}
	}()
	for i := 0; i < len(lines); {
		first := i
		cmdline := strings.TrimPrefix(lines[i], "$ ")
		for strings.HasSuffix(cmdline, `\`) && i+1 < len(lines) {
			i++
			// sh reads the backslash-newline as a continuation; the
			// shell's "> " prompt, if the example shows it, is not typed.
			cmdline += "\n" + strings.TrimPrefix(lines[i], "> ")
		}
		i++
		for _, l := range lines[first:i] {
			rewritten.WriteString(l + "\n")
		}
		var want []string
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			want = append(want, lines[i])
		}
		got, code := sb.exec(t, cmdline)
		now.WriteString("$ " + strings.ReplaceAll(cmdline, "\\\n", "\\\n> ") + "\n" + got)
		gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if got == "" {
			gotLines = nil
		}
		if w := wantExit(cmdline); code != w {
			t.Errorf("%s: `%s` exited %d, want %d; it printed:\n%s", where, cmdline, code, w, got)
			failed = true
		} else if !matchLines(want, gotLines) {
			if *update && updatable(want, gotLines) && !strings.Contains(got, sb.dir) {
				for _, l := range gotLines {
					rewritten.WriteString(l + "\n")
				}
				changed = true
				continue
			}
			t.Errorf("%s: `%s` printed\n%s\nwhich does not match the example\n%s", where, cmdline, got, strings.Join(want, "\n"))
			failed = true
		}
		for _, l := range want {
			rewritten.WriteString(l + "\n")
		}
	}
	return rewritten.String(), changed
}

// updatable: -update may replace an example's output by what ccvet prints
// now when the example elides nothing and no printed line would read as a
// command line or an elision (nor names the sandbox: the caller checks).
func updatable(want, got []string) bool {
	for _, l := range want {
		if strings.Contains(l, "…") {
			return false
		}
	}
	for _, l := range got {
		if strings.HasPrefix(l, "$ ") || strings.TrimSpace(l) == "…" || strings.HasPrefix(l, "```") {
			return false
		}
	}
	return true
}

// shRunHere are the commands an sh block runs in the sandbox; shElsewhere
// the ones CI runs from a clone (not here).
var (
	shRunHere   = []string{"ccvet", "go run ./cmd/ccvet", "cp ", "mkdir ", "touch "}
	shElsewhere = []string{"go ", "git ", "pre-commit ", "bash ", "bench/", "scripts/", "CCVET_", "GOOS=", "cd "}
)

func (sb *sandbox) sh(t *testing.T, where, body string) {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		switch {
		case hasAnyPrefix(l, shRunHere):
			out, code := sb.exec(t, l)
			if w := wantExit(l); code != w {
				t.Errorf("%s: `%s` exited %d, want %d; it printed:\n%s", where, l, code, w, out)
			}
		case hasAnyPrefix(l, shElsewhere):
		default:
			t.Errorf("%s: `%s`: an sh example runs ccvet (or cp, mkdir, touch) here, or a command CI runs from a clone (%s)", where, l, strings.Join(shElsewhere, ", "))
		}
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

func (sb *sandbox) yaml(t *testing.T, where, body string) {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		// A fragment (the hooks of a config, indented as in one) is checked
		// as a list of hooks.
		var hooks []map[string]any
		if err2 := yaml.Unmarshal([]byte(body), &hooks); err2 != nil {
			t.Errorf("%s: the yaml block does not parse: %v", where, err)
			return
		}
		sb.checkHooks(t, where, hooks)
		return
	}
	switch {
	case doc["repos"] != nil:
		repos, _ := doc["repos"].([]any)
		for _, r := range repos {
			rm, _ := r.(map[string]any)
			hs, _ := rm["hooks"].([]any)
			var hooks []map[string]any
			for _, h := range hs {
				hm, _ := h.(map[string]any)
				hooks = append(hooks, hm)
			}
			sb.checkHooks(t, where, hooks)
		}
	case doc["jobs"] != nil:
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Run string `yaml:"run"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal([]byte(body), &wf); err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		for _, j := range wf.Jobs {
			for _, s := range j.Steps {
				if !strings.HasPrefix(s.Run, "ccvet") {
					continue
				}
				if out, code := sb.exec(t, s.Run); code != 0 && code != 1 {
					t.Errorf("%s: workflow step `%s` exited %d:\n%s", where, s.Run, code, out)
				}
			}
		}
	default:
		if _, err := config.Parse(".ccvet.yaml", []byte(body)); err != nil {
			t.Errorf("%s: the .ccvet.yaml example does not load: %v", where, err)
		}
	}
}

// checkHooks: every hook id is one of .pre-commit-hooks.yaml.
func (sb *sandbox) checkHooks(t *testing.T, where string, hooks []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		ID string `yaml:"id"`
	}
	if err := yaml.Unmarshal(data, &defs); err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		id, _ := h["id"].(string)
		if !slices.ContainsFunc(defs, func(d struct {
			ID string `yaml:"id"`
		}) bool {
			return d.ID == id
		}) {
			t.Errorf("%s: hook %q is not in .pre-commit-hooks.yaml", where, id)
		}
	}
}

// matchLines matches output lines against an example's: "…" within a line
// matches any text, a line that is only "…" any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && matchLine(strings.TrimRight(want[0], " "), strings.TrimRight(got[0], " ")) && matchLines(want[1:], got[1:])
}

func matchLine(want, got string) bool {
	parts := strings.Split(want, "…")
	if len(parts) == 1 {
		return want == got
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		k := strings.Index(got, p)
		if k < 0 {
			return false
		}
		got = got[k+len(p):]
	}
	return strings.HasSuffix(got, last)
}

// TestMatchLines pins the example matcher.
func TestMatchLines(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a", "a", true},
		{"a", "b", false},
		{"a…c", "abbc", true},
		{"a…c", "ac", true},
		{"a…c", "ab", false},
		{"…", "", true},
		{"x\n…\ny", "x\n1\n2\ny", true},
		{"x\n…\ny", "x\ny", true},
		{"x\n…", "x\n1", true},
		{"x\n…\ny", "x\n1\n2", false},
		{"…b…", "abc", true},
		{"s…s", "s", false},
	} {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, "\n")
		}
		if got := matchLines(split(c.want), split(c.got)); got != c.ok {
			t.Errorf("matchLines(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}

// TestDocLinks: every relative link of README.md and docs/*.md names a file
// of the repository and, with a #fragment into a Markdown file, one of its
// headings (GitHub's anchors), so that moving text between pages breaks no
// link.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "CHANGELOG.md"), filepath.Join(root, "ARCHITECTURE.md"))
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		data, _ := os.ReadFile(path)
		seen := map[string]int{}
		inFence := false
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
				inFence = !inFence
			}
			if inFence || !strings.HasPrefix(l, "#") {
				continue
			}
			s := githubSlug(strings.TrimLeft(l, "#"))
			if n := seen[s]; n > 0 {
				a[fmt.Sprintf("%s-%d", s, n)] = true
			} else {
				a[s] = true
			}
			seen[s]++
		}
		for _, m := range regexp.MustCompile(`<a (?:name|id)="([^"]+)"`).FindAllStringSubmatch(string(data), -1) {
			a[m[1]] = true
		}
		anchors[path] = a
		return a
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRe.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), filepath.FromSlash(file))
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: no such file", doc, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[frag] {
				t.Errorf("%s: link %q: no heading of %s has that anchor", doc, target, path)
			}
		}
	}
}

var linkRe = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// githubSlug is the anchor GitHub gives a heading: lower case, punctuation
// but hyphens and underscores dropped, spaces as hyphens.
func githubSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
