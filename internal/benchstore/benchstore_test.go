package benchstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/cli"
)

var (
	outDir  = flag.String("out", "", "TestGenerateStore: write a store into this folder")
	outSize = flag.String("size", "1G", "TestGenerateStore: approximate size (e.g. 200M, 1G)")
	outSeed = flag.Uint64("seed", 1, "TestGenerateStore: seed")
	outProj = flag.Int("projects", 0, "TestGenerateStore: project folders (0: one per 48 MiB)")
)

// TestGenerateStore is the command that writes a benchmark store:
//
//	go test ./internal/benchstore -run TestGenerateStore -args -out /tmp/store -size 1G -seed 1
//
// -projects 1 writes every session into one project folder.
// It is skipped unless -out is given.
func TestGenerateStore(t *testing.T) {
	if *outDir == "" {
		t.Skip("no -out folder given")
	}
	size, err := ParseSize(*outSize)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Generate(*outDir, Options{Bytes: size, Seed: *outSeed, Projects: *outProj})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", st)
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1G": 1 << 30, "200M": 200 << 20, "64k": 64 << 10, "1000": 1000, "1.5G": 3 << 29} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "G", "-1M", "1X"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) should fail", in)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	sa, err := Generate(a, Options{Bytes: 3 << 20, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, Options{Bytes: 3 << 20, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Fatalf("stats differ: %+v vs %+v", sa, sb)
	}
	ta, tb := tree(t, a), tree(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("%d files vs %d", len(ta), len(tb))
	}
	for p, d := range ta {
		if !bytes.Equal(d, tb[p]) {
			t.Fatalf("%s differs between two runs with the same seed", p)
		}
	}
	if sa.Files != len(ta) {
		t.Errorf("Stats.Files = %d, %d files on disk", sa.Files, len(ta))
	}
	var total int64
	for _, d := range ta {
		total += int64(len(d))
	}
	if total != sa.Bytes {
		t.Errorf("Stats.Bytes = %d, %d bytes on disk", sa.Bytes, total)
	}
	c, _ := Generate(t.TempDir(), Options{Bytes: 3 << 20, Seed: 43})
	if c == sa {
		t.Errorf("another seed gives the same store")
	}
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHealthy runs ccvet with every default rule over a generated store
// and wants no finding at all.
func TestHealthy(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	st, err := Generate(dir, Options{Bytes: 4 << 20, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if st.Sessions < 3 || st.Subagents < 1 || st.Backups < 1 {
		t.Errorf("store too plain: %+v", st)
	}
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"--format", "json", dir}, strings.NewReader(""), &stdout, &stderr)
	var out struct {
		Findings []struct {
			Rule, Severity, Path, Message string
			Line                          int
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("exit %d, bad JSON: %v\n%s", code, err, stderr.String())
	}
	for i, f := range out.Findings {
		if i == 30 {
			t.Errorf("... %d findings in all", len(out.Findings))
			break
		}
		t.Errorf("%s:%d: %s: %s [%s]", f.Path, f.Line, f.Severity, f.Message, f.Rule)
	}
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if out.Summary["files"] != st.Sessions+st.Subagents+st.Sessions+1 { // transcripts, todos, history.jsonl
		t.Errorf("ccvet checked %d files; generated %+v", out.Summary["files"], st)
	}
	t.Logf("%+v; ccvet: %v", st, out.Summary)
}

// ParseSize reads 200M, 1G, 64k or a plain number of bytes.
func ParseSize(s string) (int64, error) {
	mult := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 0, &strconv.NumError{Func: "ParseSize", Num: s, Err: strconv.ErrSyntax}
	}
	return int64(f * mult), nil
}

// storeDigest is the sha256 of Generate(2 MiB, seed 5): every relative
// path and its bytes, in lexical order. Pinned so that a store (and the
// goldens over it) is the same on every machine and Go version: no map
// order, no clock, no absolute path, no float rounding that differs. A
// deliberate change of the generator updates it (and the goldens).
const storeDigest = "9e68edbde5fc3445023a0066fa5d08ac6c1a1cf34e8d00bb29992a358179a075"

func TestGeneratedBytes(t *testing.T) {
	dir := t.TempDir()
	if _, err := Generate(dir, Options{Bytes: 2 << 20, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	files := tree(t, dir)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(p), len(files[p]))
		h.Write(files[p])
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != storeDigest {
		t.Errorf("Generate(2 MiB, seed 5) = %s, want %s (%d files)", got, storeDigest, len(paths))
	}
}
