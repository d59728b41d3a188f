package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/testnotice"
)

// defaultCorpusDir holds real files written by Claude Code (see its
// MANIFEST.tsv); CI clones the repository beside shared/. CCVET_CORPUS
// names another folder.
const defaultCorpusDir = "../../../shared/corpus/real"

// corpusDir is the real corpus the tests read.
var corpusDir = func() string {
	if d := os.Getenv("CCVET_CORPUS"); d != "" {
		return d
	}
	return defaultCorpusDir
}()

// knownBroken lists real files that are truly damaged, with the error rules
// ccvet must report on them. Every other file marked real must give no error.
// testdata/broken keeps copies (see its README for what is wrong with each).
var knownBroken = map[string][]string{
	// 2.0.56: the head of the session is gone; line 1 is a tool_result
	// without its call. (Its parent is in no file: an orphan-parent
	// warning, as a resume starts there either way.)
	"Smartagent-so__Personal_AI_Infrastructure/.claude/projects/-Users-pretor-Documents-PAI---TPOS/eca51c57-7b92-423f-8ad6-52f996c9a8e1.jsonl": {"unmatched-tool-result"},
	// A Stop-hook progress entry parented to a uuid never written: resume loses 211 / 46 entries.
	"entireio__cli/5d/107d133886/0/full.jsonl": {"orphan-parent"},
	"entireio__cli/6d/e70163f7e3/0/full.jsonl": {"orphan-parent"},
	// Real fixtures cut down by hand: entries removed from the middle.
	// (sidechain.jsonl is cut too, but only on a sidechain branch the main
	// resume does not walk, and at its first line: orphan-parent warnings.)
	"iansherr__claude-code-log/test/test_data/sidechain_agent.jsonl": {"orphan-parent", "unmatched-tool-result"},
}

// interruptedAtEnd are healthy real transcripts that end while a Bash call
// ran (no result): today's reader adds an is_error result and loses nothing,
// so ccvet says so in a note; readers before 2.1.330 drop the call, which
// the note names and --reader-version 2.1.110 makes an error.
var interruptedAtEnd = []string{
	"Smartagent-so__Personal_AI_Infrastructure/.claude/projects/-Users-pretor-Documents-PAI---TPOS/d6a37ffc-384d-4d2a-832a-78cdd493af69.jsonl",
	"entireio__cli/4c/70d9b5734c/0/full.jsonl",
}

// TestInterruptedAtEnd: no error for today's reader, a note that names what
// older readers do; an error when judged for 2.1.110 (in a projects folder).
func TestInterruptedAtEnd(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	realFiles(t) // skips without the corpus
	for _, name := range interruptedAtEnd {
		p := filepath.Join(corpusDir, name)
		for _, pinned := range []string{"", "2.1.110"} {
			args := []string{"--no-config", "--exit-zero"}
			if pinned != "" {
				args = append(args, "--reader-version", pinned)
			}
			out, _, _ := runJSON(t, append(args, p)...)
			sev := map[string]int{}
			for _, f := range out.Findings {
				if f.Rule != "unmatched-tool-use" {
					continue
				}
				sev[f.Severity]++
				if pinned == "" && !strings.Contains(f.Message, "before 2.1.330: drops the call") {
					t.Errorf("%s: the note does not say what older readers do: %s", name, f.Message)
				}
			}
			switch {
			case pinned == "" && (sev["note"] != 1 || len(sev) != 1):
				t.Errorf("%s: want one unmatched-tool-use note for today's reader, got %v", name, sev)
			case pinned != "" && strings.Contains(name, "/projects/") && sev["error"] != 1:
				t.Errorf("%s: want an unmatched-tool-use error for reader %s, got %v", name, pinned, sev)
			}
			if pinned == "" && out.Summary["errors"] != 0 {
				t.Errorf("%s: %d errors, want none", name, out.Summary["errors"])
			}
		}
	}
}

// TestKnownBroken checks the copies in testdata/broken, so the real faults
// stay covered where the shared corpus is not available.
func TestKnownBroken(t *testing.T) {
	want := map[string][]string{
		"projects/-Users-pretor-Documents-PAI---TPOS/eca51c57-7b92-423f-8ad6-52f996c9a8e1.jsonl": {"unmatched-tool-result"},
		"stop-hook-orphan.jsonl":    {"orphan-parent"},
		"sidechain-agent-cut.jsonl": {"orphan-parent", "unmatched-tool-result"},
	}
	for name, rules := range want {
		out, _, code := runJSON(t, filepath.Join("..", "..", "testdata", "broken", name))
		if code != ExitFindings {
			t.Errorf("%s: exit %d, want 1", name, code)
		}
		got := map[string]bool{}
		for _, f := range out.Findings {
			if f.Severity == "error" {
				got[f.Rule] = true
			}
		}
		for _, r := range rules {
			if !got[r] {
				t.Errorf("%s: want a %s error, got %v", name, r, got)
			}
		}
	}
}

// realFiles reads MANIFEST.tsv: local path -> whether the file is real
// (written by Claude Code, not made by hand).
func realFiles(t *testing.T) map[string]bool {
	f, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		if os.Getenv("CCVET_CORPUS") != "" {
			t.Fatalf("CCVET_CORPUS: %v", err)
		}
		skipVisibly(t, "ccvet: TestRealCorpus skipped: no real corpus at ../shared/corpus/real (set CCVET_CORPUS to its folder; see docs/development.md)")
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 9 || cols[0] == "local_path" {
			continue
		}
		out[cols[0]] = strings.HasPrefix(cols[8], "real")
	}
	return out
}

// TestRealCorpus runs ccvet over every real file and demands silence on the
// healthy ones: an error on a healthy real file is a false positive.
func TestRealCorpus(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	manifest := realFiles(t)
	out, _, _ := runJSON(t, "--exit-zero", corpusDir)
	if out.Summary["files"] < 250 || out.Summary["entries"] < 13000 {
		t.Fatalf("corpus run checked too little: %v", out.Summary)
	}
	got := map[string]map[string]bool{}
	for _, f := range out.Findings {
		if f.Severity != "error" {
			continue
		}
		if !manifest[f.Path] {
			continue // hand-made fixtures may be odd on purpose
		}
		if got[f.Path] == nil {
			got[f.Path] = map[string]bool{}
		}
		got[f.Path][f.Rule] = true
		if _, broken := knownBroken[f.Path]; !broken {
			t.Errorf("false positive on a healthy real file: %s:%d:%d: %s [%s]", f.Path, f.Line, f.Column, f.Message, f.Rule)
		}
	}
	for path, want := range knownBroken {
		for _, rule := range want {
			if !got[path][rule] {
				t.Errorf("%s: want a %s error (the file is known to be broken)", path, rule)
			}
		}
	}
	var counts []string
	for path, rs := range got {
		var ids []string
		for r := range rs {
			ids = append(ids, r)
		}
		sort.Strings(ids)
		counts = append(counts, path+": "+strings.Join(ids, ","))
	}
	sort.Strings(counts)
	t.Logf("real files with errors:\n%s", strings.Join(counts, "\n"))
}

// skipVisibly skips t with msg, and says msg where a plain `go test ./...`
// shows it (internal/testnotice): a silent skip would look like a pass.
func skipVisibly(t *testing.T, msg string) {
	t.Helper()
	testnotice.Print(msg)
	t.Skip(msg)
}
