package benchstore

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/cli"
)

var (
	realDir  = flag.String("real", "", "TestGenerateRealStore: the real corpus to copy (e.g. ../shared/corpus/real)")
	realMode = flag.String("mode", "many", "TestGenerateRealStore: many (a project folder per copy), one (one folder), chain (one transcript), chain-short (one transcript of the sources whose lines average under 2,000 bytes), chain-progress (one transcript of the sources whose lines are at least half progress entries), windows (Windows paths), fresh (no long text repeated across copies) or windows-fresh (both)")
)

const corpusDir = "../../../shared/corpus/real"

type lintOut struct {
	Findings []struct {
		Rule, Severity, Path, Message string
		Line                          int
	}
	Summary map[string]int
}

// lintReport runs ccvet's full lint over dir and returns its JSON report.
func lintReport(t *testing.T, dir string) lintOut {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"--format", "json", "--no-config", "--exit-zero", dir}, strings.NewReader(""), &stdout, &stderr)
	var out lintOut
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("exit %d, bad JSON: %v\n%s", code, err, stderr.String())
	}
	return out
}

// healthySources lists the real transcripts of the corpus at dir on which
// ccvet reports nothing (every default rule, the corpus linted whole).
func healthySources(t *testing.T, dir string) []RealSource {
	t.Helper()
	flagged := map[string]bool{}
	for _, f := range lintReport(t, dir).Findings {
		if rel, err := filepath.Rel(dir, f.Path); err == nil {
			flagged[filepath.ToSlash(rel)] = true
		}
	}
	srcs, err := RealSources(dir, func(rel string) bool { return flagged[rel] })
	if err != nil {
		t.Fatal(err)
	}
	// A transcript healthy in the corpus may still not be healthy alone:
	// a subagent whose session was left out, a summary naming an entry of a
	// left-out file. Copy them all once, into folders of their own and into
	// one folder, and leave out every source whose copy has a finding,
	// until no copy has one.
	for range 6 {
		var total int64
		for _, s := range srcs {
			if fi, err := os.Stat(s.Path); err == nil {
				total += fi.Size()
			}
		}
		bad := map[string]bool{}
		for _, opts := range []RealOptions{{}, {OneFolder: true}, {Chain: true}} {
			out := t.TempDir()
			origin := map[string]string{}
			opts.Bytes, opts.Seed, opts.Origin = total, 1, func(dst, src string) { origin[dst] = src }
			if _, err := BuildReal(out, srcs, opts); err != nil {
				t.Fatal(err)
			}
			for _, f := range lintReport(t, out).Findings {
				rel, _ := filepath.Rel(out, f.Path)
				src := origin[filepath.ToSlash(rel)]
				if opts.Chain { // the segment the line is in
					for l := f.Line; l > 0 && src == ""; l-- {
						src = origin[filepath.ToSlash(rel)+":"+strconv.Itoa(l)]
					}
				}
				if src == "" {
					t.Fatalf("a finding on a file not copied: %s:%d: %s", f.Path, f.Line, f.Message)
				}
				bad[src] = true
			}
			os.RemoveAll(out)
		}
		if len(bad) == 0 {
			return srcs
		}
		kept := srcs[:0]
		for _, s := range srcs {
			if !bad[s.Path] {
				kept = append(kept, s)
			}
		}
		srcs = kept
	}
	t.Fatal("copies of the corpus still have findings after 6 rounds")
	return nil
}

// TestGenerateRealStore is the command that writes a store of copies of
// the real corpus's healthy transcripts:
//
//	go test ./internal/benchstore -run TestGenerateRealStore -args -real ../shared/corpus/real -out /tmp/store -size 200M [-mode one|chain|chain-short|chain-progress|windows|fresh]
//
// It is skipped unless -real and -out are given.
func TestGenerateRealStore(t *testing.T) {
	if *realDir == "" || *outDir == "" {
		t.Skip("no -real corpus and -out folder given")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	size, err := ParseSize(*outSize)
	if err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs(*realDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := RealOptions{Bytes: size, Seed: *outSeed}
	srcs := healthySources(t, src)
	switch *realMode {
	case "many":
	case "one":
		opts.OneFolder = true
	case "chain":
		opts.Chain = true
	case "chain-short":
		opts.Chain = true
		if srcs, err = ShortLines(srcs, 2000); err != nil {
			t.Fatal(err)
		}
	case "chain-progress":
		opts.Chain = true
		if srcs, err = ProgressLines(srcs); err != nil {
			t.Fatal(err)
		}
	case "windows":
		opts.Windows = true
	case "fresh":
		opts.FreshText = true
	case "windows-fresh":
		opts.Windows, opts.FreshText = true, true
	default:
		t.Fatalf("-mode %q: want many, one, chain, chain-short, chain-progress, windows, fresh or windows-fresh", *realMode)
	}
	st, err := BuildReal(*outDir, srcs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
}

// TestRealStoreClean builds each kind of real-shaped store from the shared
// corpus and wants ccvet to report nothing on it: copying a healthy
// transcript into a store of its own layout adds no finding.
func TestRealStoreClean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and lints seven 30 MB stores")
	}
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no real corpus at " + corpusDir)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	srcs := healthySources(t, corpusDir)
	if len(srcs) < 50 {
		t.Fatalf("only %d healthy real transcripts", len(srcs))
	}
	for _, tc := range []struct {
		name string
		opts RealOptions
		pick func([]RealSource) ([]RealSource, error) // nil: every healthy source
	}{
		{"many", RealOptions{Bytes: 30 << 20, Seed: 1}, nil},
		{"one", RealOptions{Bytes: 30 << 20, Seed: 1, OneFolder: true}, nil},
		{"chain", RealOptions{Bytes: 30 << 20, Seed: 1, Chain: true}, nil},
		{"windows", RealOptions{Bytes: 30 << 20, Seed: 1, Windows: true}, nil},
		{"fresh", RealOptions{Bytes: 30 << 20, Seed: 1, FreshText: true}, nil},
		{"windows-fresh", RealOptions{Bytes: 30 << 20, Seed: 1, Windows: true, FreshText: true}, nil},
		{"chain-progress", RealOptions{Bytes: 30 << 20, Seed: 1, Chain: true}, ProgressLines},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			srcs := srcs
			if tc.pick != nil {
				var err error
				if srcs, err = tc.pick(srcs); err != nil {
					t.Fatal(err)
				}
			}
			st, err := BuildReal(dir, srcs, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			out := lintReport(t, dir)
			for i, f := range out.Findings {
				if i == 30 {
					t.Errorf("... %d findings in all", len(out.Findings))
					break
				}
				t.Errorf("%s:%d: %s: %s [%s]", f.Path, f.Line, f.Severity, f.Message, f.Rule)
			}
			if out.Summary["files"] != st.Sessions+st.Subagents {
				t.Errorf("ccvet checked %d files; built %+v", out.Summary["files"], st)
			}
			t.Logf("%+v; ccvet: %v", st, out.Summary)
		})
	}
}

// TestRealDeterministic: the same sources, size and seed give the same
// bytes, in each shape; another seed other ids.
func TestRealDeterministic(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no real corpus at " + corpusDir)
	}
	srcs, err := RealSources(corpusDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []RealOptions{{}, {OneFolder: true}, {Chain: true}, {Windows: true}, {FreshText: true}, {Windows: true, FreshText: true}} {
		opts.Bytes = 4 << 20
		build := func(seed uint64) map[string][]byte {
			dir := t.TempDir()
			o := opts
			o.Seed = seed
			if _, err := BuildReal(dir, srcs, o); err != nil {
				t.Fatal(err)
			}
			return tree(t, dir)
		}
		a, b, c := build(1), build(1), build(2)
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("%+v: %d files, then %d", opts, len(a), len(b))
		}
		for p, d := range a {
			if !bytes.Equal(d, b[p]) {
				t.Fatalf("%+v: %s differs between two builds with the same seed", opts, p)
			}
		}
		same := len(a) == len(c)
		for p, d := range a {
			same = same && bytes.Equal(d, c[p])
		}
		if same {
			t.Errorf("%+v: another seed gives the same store", opts)
		}
	}
}

// TestShortLines keeps the sources whose lines average under the bound.
func TestShortLines(t *testing.T) {
	dir := t.TempDir()
	short, long := filepath.Join(dir, "short.jsonl"), filepath.Join(dir, "long.jsonl")
	if err := os.WriteFile(short, []byte(strings.Repeat("{}\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(long, []byte(strings.Repeat("x", 5000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ShortLines([]RealSource{{Path: long}, {Path: short}}, 2000)
	if err != nil || len(got) != 1 || got[0].Path != short {
		t.Fatalf("ShortLines = %v, %v; want only %s", got, err, short)
	}
	if _, err := ShortLines([]RealSource{{Path: filepath.Join(dir, "gone.jsonl")}}, 2000); err == nil {
		t.Error("no error for a missing source")
	}
}
