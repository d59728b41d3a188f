package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusDir holds real files written by Claude Code (see its MANIFEST.tsv);
// CI clones the repository beside shared/.
const corpusDir = "../../../shared/corpus/real"

// knownBroken lists real files that are truly damaged, with the error rules
// ccvet must report on them. Every other file marked real must give no error.
var knownBroken = map[string][]string{}

// realFiles reads MANIFEST.tsv: local path -> whether the file is real
// (written by Claude Code, not made by hand).
func realFiles(t *testing.T) map[string]bool {
	f, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real corpus not available: %v", err)
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
