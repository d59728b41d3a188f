package benchstore

import (
	"bytes"
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/cli"
)

var update = flag.Bool("update", false, "TestGeneratedGolden: rewrite testdata/generated.json")

// TestGeneratedGolden pins the JSON report over a generated store in which
// about one line in thirty was damaged (dropped, repeated, cut, given an
// unknown field or a bad timestamp), and checks that every -j gives the
// same bytes. A change of speed or memory must not change one byte of it;
// a deliberate change of a rule's message is recorded with
// go test ./internal/benchstore -run TestGeneratedGolden -update.
func TestGeneratedGolden(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	if _, err := Generate(dir, Options{Bytes: 6 << 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	damage(t, dir)
	var first []byte
	for _, jobs := range []string{"1", "2", "5"} {
		var stdout, stderr bytes.Buffer
		code := cli.Main([]string{"--format", "json", "--strict", "--exit-zero", "--jobs", jobs, dir},
			strings.NewReader(""), &stdout, &stderr)
		if code != 0 {
			t.Fatalf("-j %s: exit %d: %s", jobs, code, stderr.String())
		}
		got := bytes.ReplaceAll(stdout.Bytes(), []byte(`"`+dir+`/`), []byte(`"`))
		if i := bytes.Index(got, []byte(`"version": "`)); i >= 0 {
			if j := bytes.IndexByte(got[i+12:], '"'); j >= 0 {
				got = append(got[:i+12:i+12], got[i+12+j:]...) // the version changes between builds
			}
		}
		if first == nil {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Fatalf("-j %s gives another report than -j 1", jobs)
		}
	}
	golden := filepath.Join("testdata", "generated.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, first, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(first, want) {
		t.Errorf("the report differs from %s (-update rewrites it after a deliberate change)", golden)
	}
	if n := bytes.Count(first, []byte(`"rule": `)); n < 50 {
		t.Errorf("only %d findings: the damage did not take", n)
	}
}

// damage changes about one line in thirty of every transcript, the same
// way for the same store.
func damage(t *testing.T, dir string) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	var files []string
	err := filepath.WalkDir(filepath.Join(dir, "projects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files { // WalkDir visits in lexical order
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			switch x := r.IntN(200); {
			case x < 1: // dropped: its children lose their parent
			case x < 2:
				out = append(out, l, l)
			case x < 3:
				out = append(out, l[:len(l)/2])
			case x < 4:
				out = append(out, bytes.Replace(l, []byte(`"type":"user"`), []byte(`"type":"user","bogus":1`), 1))
			case x < 5:
				out = append(out, bytes.Replace(l, []byte(`"timestamp":"`), []byte(`"timestamp":"x`), 1))
			case x < 6:
				out = append(out, bytes.Replace(l, []byte(`"parentUuid":"`), []byte(`"parentUuid":"0`), 1))
			default:
				out = append(out, l)
			}
		}
		if err := os.WriteFile(p, bytes.Join(out, []byte("\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
