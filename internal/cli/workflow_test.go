package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeWithBackup copies testdata/store (which has 3 errors) to a temp data
// root and puts beside its projects/ a user's copy projects.bak-1/ of a
// broken project, which is not part of the layout.
func storeWithBackup(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "claude-data")
	copyTree(t, filepath.Join(abs, "store"), root)
	copyTree(t, filepath.Join(abs, "rules", "invalid-json", "bad"), filepath.Join(root, "projects.bak-1", "-p"))
	return root
}

// TestArgumentOrder: a path named on the command line is checked as what it
// is, whatever else was named and in what order (issue 13, item 9).
func TestArgumentOrder(t *testing.T) {
	isolate(t)
	root := storeWithBackup(t)
	bak := filepath.Join(root, "projects.bak-1")
	alone, _, _ := runJSON(t, root)
	a, _, codeA := runJSON(t, root, bak)
	b, _, codeB := runJSON(t, bak, root)
	if codeA != codeB || a.Summary["files"] != b.Summary["files"] || a.Summary["errors"] != b.Summary["errors"] ||
		a.Summary["skipped"] != b.Summary["skipped"] || len(a.Findings) != len(b.Findings) {
		t.Fatalf("order matters: %v (exit %d) vs %v (exit %d)", a.Summary, codeA, b.Summary, codeB)
	}
	if a.Summary["files"] != alone.Summary["files"]+1 || a.Summary["skipped"] != alone.Summary["skipped"]-1 {
		t.Errorf("the named backup folder is not checked: alone %v, with it %v", alone.Summary, a.Summary)
	}
	if rulesOf(a)["invalid-json"] == 0 {
		t.Errorf("no invalid-json finding in the named backup folder: %v", rulesOf(a))
	}
	for i := range a.Findings {
		if a.Findings[i] != b.Findings[i] {
			t.Errorf("finding %d: %+v vs %+v", i, a.Findings[i], b.Findings[i])
		}
	}
	// A file named inside a folder named before it.
	file := filepath.Join(bak, "-p", "session.jsonl")
	c, _, _ := runJSON(t, root, file)
	if c.Summary["files"] != a.Summary["files"] || rulesOf(c)["invalid-json"] == 0 {
		t.Errorf("ROOT then a file inside it: %v", c.Summary)
	}
}

// TestPathsFromHere: every format prints paths that open from where ccvet
// runs: they start with the argument (issue 13, item 3).
func TestPathsFromHere(t *testing.T) {
	isolate(t)
	root := storeWithBackup(t)
	t.Chdir(filepath.Dir(root))
	for _, format := range []string{"text", "json", "github", "sarif"} {
		out, _, _ := run(t, "", "--no-snippet", "-f", format, "claude-data")
		if !strings.Contains(out, "claude-data/projects/-home-jenkins-Personal-AI-Infrastructure/7d3f0c1a-5b2e-4c8d-9a61-2f4e8b0c9d13.jsonl") {
			t.Errorf("%s: paths do not start with the argument:\n%s", format, out)
		}
	}
}

// TestForeignJSONL: somebody else's JSON Lines (a dataset) is skipped with a
// one-line note, never failed; real transcripts, even tiny, unnamed or
// damaged ones, are always checked (issue 13, item 2).
func TestForeignJSONL(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	dataset := writeFile(t, filepath.Join(dir, "data", "train.jsonl"),
		[]byte("{\"text\": \"hello\", \"label\": 1}\n{\"text\": \"bye\", \"label\": 0, \"id\": \"x\"}\n[1, 2]\n"))
	// Named alone, it leaves nothing to check: exit 2 (see --allow-empty),
	// after the note; the per-file pre-commit hook passes --allow-empty.
	_, stderr, code := run(t, "", dataset)
	if code != ExitUsage || !strings.HasPrefix(stderr, "ccvet: "+dataset+": skipped: no line is a Claude Code entry\n") {
		t.Errorf("dataset named: exit %d, stderr %q", code, stderr)
	}
	out, _, stderr, code := runJSONStderr(t, "--allow-empty", dataset)
	if code != ExitOK || len(out.Findings) != 0 || out.Summary["files"] != 0 || out.Summary["skipped"] != 1 {
		t.Errorf("dataset named, --allow-empty: exit %d, %v, %+v", code, out.Summary, out.Findings)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "train.jsonl: skipped: no line is a Claude Code entry") {
		t.Errorf("dataset named: stderr %q", stderr)
	}
	_, stderr, _ = run(t, "", "-q", "--allow-empty", dataset)
	if stderr != "" {
		t.Errorf("-q: stderr %q", stderr)
	}
	// Transcripts that must be checked: a one-line summary, a damaged
	// entry, NUL bytes left by a crash, random bytes, an empty file.
	cases := map[string]string{
		"summary.jsonl":  `{"type":"summary","summary":"x","leafUuid":"1c1e3bd9-2bb9-4626-bd99-86a5f04492e6"}` + "\n",
		"cut.jsonl":      `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"us`,
		"nul.jsonl":      "\x00\x00\x00\x00\n",
		"junk.jsonl":     "not json\n",
		"empty.jsonl":    "",
		"cut-down.jsonl": `{"type":"user","message":{}}` + "\n" + `{"type": "assistant", "message": {"usage": {}}}` + "\n",
	}
	for name, body := range cases {
		p := writeFile(t, filepath.Join(dir, "exports", name), []byte(body))
		out, _, stderr, _ := runJSONStderr(t, p)
		if out.Summary["files"] != 1 || strings.Contains(stderr, "skipped") {
			t.Errorf("%s: not checked: %v, stderr %q", name, out.Summary, stderr)
		}
	}
	// A folder holding both: the dataset is left alone, the rest checked.
	out, _, _ = runJSON(t, dir)
	for _, f := range out.Findings {
		if strings.Contains(f.Path, "train.jsonl") {
			t.Errorf("finding on the dataset: %+v", f)
		}
	}
	if out.Summary["files"] != len(cases) {
		t.Errorf("folder: %v", out.Summary)
	}
}

// TestBaselinePortable: a baseline written over a whole store silences its
// findings in a run over single files, over two arguments, and from another
// folder; keys are paths relative to the data root (issue 13, item 4).
func TestBaselinePortable(t *testing.T) {
	isolate(t)
	root := storeWithBackup(t)
	if err := os.RemoveAll(filepath.Join(root, "projects.bak-1")); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Dir(root)
	t.Chdir(repo)
	bl := filepath.Join(repo, "baseline.json")
	if _, stderr, code := run(t, "", "--write-baseline", bl, "claude-data"); code != ExitOK {
		t.Fatalf("--write-baseline: exit %d, %s", code, stderr)
	}
	data, err := os.ReadFile(bl)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"path": "projects/-home-jenkins-Personal-AI-Infrastructure/`) {
		t.Errorf("baseline paths are not relative to the data root:\n%s", data)
	}
	broken := "claude-data/projects/-home-jenkins-Personal-AI-Infrastructure/7d3f0c1a-5b2e-4c8d-9a61-2f4e8b0c9d13.jsonl"
	loose := writeFile(t, filepath.Join(repo, "exports", "x.jsonl"), []byte("{\"sessionId\":1}\n\n"))
	for name, args := range map[string][]string{
		"store":            {"claude-data"},
		"one file":         {broken},
		"projects folder":  {"claude-data/projects"},
		"two arguments":    {"claude-data/projects", "claude-data/history.jsonl"},
		"absolute":         {root},
		"store and a file": {"claude-data", loose},
	} {
		out, _, code := runJSON(t, append([]string{"--baseline", bl}, args...)...)
		if name == "store and a file" {
			// The loose file was not in the baseline: its findings show.
			for _, f := range out.Findings {
				if !strings.HasPrefix(f.Path, filepath.ToSlash(loose)) {
					t.Errorf("%s: a baselined finding shows: %+v", name, f)
				}
			}
			continue
		}
		if code != ExitOK || len(out.Findings) != 0 {
			t.Errorf("%s: exit %d, findings %+v", name, code, out.Findings)
		}
	}
	// From another folder.
	t.Chdir(root)
	if out, _, code := runJSON(t, "--baseline", bl, "."); code != ExitOK || len(out.Findings) != 0 {
		t.Errorf("from the data root: exit %d, findings %+v", code, out.Findings)
	}
}

// TestDefaultPath: --default-path (the ccvet-store hook's entry) is checked
// when no PATH is given, and never the home data folder; a PATH given (the
// hook's args) replaces it (issue 13, item 1).
func TestDefaultPath(t *testing.T) {
	isolate(t)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(fixtures, "invalid-json", "bad")) // must never be read
	good := filepath.Join(fixtures, "missing-final-newline", "good")
	out, _, code := runJSON(t, "--default-path", good, "--fail-on", "warning")
	if code != ExitOK || out.Summary["files"] == 0 || rulesOf(out)["invalid-json"] != 0 {
		t.Errorf("--default-path without PATH: exit %d, %v %v", code, out.Summary, rulesOf(out))
	}
	warn := filepath.Join(fixtures, "missing-final-newline", "bad")
	out, _, code = runJSON(t, "--default-path", good, warn, "--fail-on", "warning")
	if code != ExitFindings || rulesOf(out)["missing-final-newline"] == 0 || rulesOf(out)["invalid-json"] != 0 {
		t.Errorf("--default-path with a PATH: exit %d, %v", code, rulesOf(out))
	}
}
