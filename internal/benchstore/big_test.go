package benchstore

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/cli"
	"github.com/ccvet/ccvet/internal/testnotice"
)

// bigGolden pins the report of TestBigStoreGolden: its sha256, its size and
// the findings per rule. bigReport keeps the report itself, gzipped, so that
// a difference can be shown line by line.
var (
	bigGolden = filepath.Join("testdata", "big.golden")
	bigReport = filepath.Join("testdata", "big.json.gz")
)

// TestBigStoreGolden is the before/after check of issue 14 on a generated
// store of 200 MB (seed 1, many project folders) damaged in every way
// damage and damageMore know, so that file, schema, graph, tool, subagent,
// history and file-history rules all fire. Its JSON report (--strict and
// timestamp-order, the one rule off by default, turned on; paths relative to the store, the version blanked) must be the same bytes
// under -j 1, -j 2 and -j 7, and the same as the report recorded from main
// at 328b959, before any change of speed or memory; and the engine's fast
// path must find exactly what its reference path finds (referenceAgrees).
// It takes about half a minute of CPU and 200 MB of temporary disk, so it
// runs only with CCVET_BIG=1 (CI does); a deliberate change of a finding is
// recorded with
//
//	CCVET_BIG=1 go test ./internal/benchstore -run TestBigStoreGolden -update
func TestBigStoreGolden(t *testing.T) {
	if os.Getenv("CCVET_BIG") == "" {
		skipVisibly(t, "ccvet: TestBigStoreGolden skipped (the 200 MB before/after check; CCVET_BIG=1 runs it)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	st, err := Generate(dir, Options{Bytes: 200 << 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	damage(t, dir)
	damageMore(t, dir)
	t.Logf("generated %+v", st)

	var first []byte
	for _, jobs := range []string{"1", "2", "7"} {
		got := lintJSON(t, dir, "--strict", "--enable", "timestamp-order", "--jobs", jobs)
		if first == nil {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Fatalf("-j %s gives another report than -j 1:\n%s", jobs, lineDiff(first, got))
		}
	}
	t.Run("reference", func(t *testing.T) { referenceAgrees(t, dir) })
	sum := summarize(t, first)
	for _, rule := range []string{
		"invalid-json", "unknown-field", "schema", "duplicate-uuid", "orphan-parent", "parent-cycle",
		"timestamp-order", "unmatched-tool-use", "unmatched-tool-result", "missing-backup",
		"missing-backup-folder", "backup-name-mismatch", "unsafe-backup-name", "orphan-subagent",
		"history-orphan", "blank-line", "nul-bytes", "invalid-utf8", "escaped-nul", "lone-surrogate",
		"session-mismatch", "unknown-type",
	} {
		if !strings.Contains(sum, "\nrule "+rule+" ") {
			t.Errorf("no %s finding: the damage did not take", rule)
		}
	}
	if *update {
		writeGzip(t, bigReport, first)
		if err := os.WriteFile(bigGolden, []byte(sum), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(bigGolden)
	if err != nil {
		t.Fatalf("%v (CCVET_BIG=1 go test -run TestBigStoreGolden -update records it)", err)
	}
	if sum != string(want) {
		t.Errorf("the report differs from %s (-update rewrites it after a deliberate change)\nwant:\n%s\ngot:\n%s", bigGolden, want, sum)
		if old, err := readGzip(bigReport); err == nil {
			t.Errorf("%s", lineDiff(old, first))
		}
	}
}

// lintJSON runs ccvet --format json over dir (reading no .ccvet.yaml from
// the folders above) and returns its report with dir taken out of every
// path and the version blanked (it changes between builds).
func lintJSON(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args = append([]string{"--format", "json", "--exit-zero", "--no-config"}, args...)
	code := cli.Main(append(args, dir), strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	got := bytes.ReplaceAll(stdout.Bytes(), []byte(`"`+dir+`/`), []byte(`"`))
	if i := bytes.Index(got, []byte(`"version": "`)); i >= 0 {
		if j := bytes.IndexByte(got[i+12:], '"'); j >= 0 {
			got = append(got[:i+12:i+12], got[i+12+j:]...)
		}
	}
	// The schema_version line is left out, so that big.golden (a hash of
	// the report) stays what it was recorded before that key existed.
	if i := bytes.Index(got, []byte("\n  \"schema_version\": ")); i >= 0 {
		if j := bytes.IndexByte(got[i+1:], '\n'); j >= 0 {
			got = append(got[:i:i], got[i+1+j:]...)
		}
	}
	return got
}

// summarize is what big.golden holds: the report's sha256 and size, then
// the findings per rule and severity, sorted.
func summarize(t *testing.T, report []byte) string {
	t.Helper()
	var out struct {
		Findings []struct{ Rule, Severity string }
	}
	if err := json.Unmarshal(report, &out); err != nil {
		t.Fatalf("bad JSON report: %v", err)
	}
	counts := map[string]int{}
	for _, f := range out.Findings {
		counts[f.Rule+" "+f.Severity]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sum := sha256.Sum256(report)
	var b strings.Builder
	fmt.Fprintf(&b, "# TestBigStoreGolden: ccvet --format json --strict --enable timestamp-order over Generate(200 MiB, seed 1), damaged\n")
	fmt.Fprintf(&b, "sha256 %s\nbytes %d\nfindings %d\n", hex.EncodeToString(sum[:]), len(report), len(out.Findings))
	for _, k := range keys {
		fmt.Fprintf(&b, "rule %s %d\n", k, counts[k])
	}
	return b.String()
}

// damageMore adds the damage that damage does not do, the same way for
// the same store: entries that are their own parent or older than their
// parent, tool_result ids that answer nothing, bad backup names, NUL bytes,
// invalid UTF-8, escaped NULs, lone surrogates, blank lines, a foreign
// sessionId and an unknown type in transcripts; backups and a whole file-history folder removed; a session
// with subagents removed (its subagents lose their parent, history.jsonl
// names a missing session); a history.jsonl line cut and one naming a
// session that never was.
func damageMore(t *testing.T, dir string) {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 11))
	files := walkFiles(t, filepath.Join(dir, "projects"), ".jsonl")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			switch x := r.IntN(400); {
			case x < 1: // its own parent
				if u := field(l, "uuid"); u != nil {
					l = setField(l, "parentUuid", u)
				}
			case x < 2: // a year older than its parent
				l = bytes.Replace(l, []byte(`"timestamp":"2026-`), []byte(`"timestamp":"2025-`), 1)
			case x < 3: // a tool_result that answers nothing
				l = bytes.Replace(l, []byte(`"tool_use_id":"toolu_`), []byte(`"tool_use_id":"toolu_X`), 1)
			case x < 4:
				l = bytes.Replace(l, []byte(`"backupFileName":"`), []byte(`"backupFileName":"../`), 1)
			case x < 5:
				l = bytes.Replace(l, []byte(`"backupFileName":"`), []byte(`"backupFileName":"f`), 1)
			case x < 6:
				l = bytes.Replace(l, []byte(`"text":"`), []byte("\"text\":\"\x00"), 1)
			case x < 7:
				l = bytes.Replace(l, []byte(`"text":"`), []byte("\"text\":\"\xff"), 1)
			case x < 8:
				l = bytes.Replace(l, []byte(`"text":"`), []byte(`"text":"\u0000`), 1)
			case x < 9:
				l = bytes.Replace(l, []byte(`"text":"`), []byte(`"text":"\ud800`), 1)
			case x < 10:
				if len(l) > 0 {
					out = append(out, nil)
				}
			case x < 11:
				l = setField(l, "sessionId", []byte("00000000-0000-4000-8000-000000000002"))
			case x < 12:
				l = bytes.Replace(l, []byte(`"type":"assistant"`), []byte(`"type":"assistant-v2"`), 1)
			}
			out = append(out, l)
		}
		if err := os.WriteFile(p, bytes.Join(out, []byte("\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// file-history: one backup in twelve, and the third session's folder.
	folders, err := os.ReadDir(filepath.Join(dir, "file-history"))
	if err != nil {
		t.Fatal(err)
	}
	if len(folders) < 4 {
		t.Fatalf("only %d file-history folders", len(folders))
	}
	for _, p := range walkFiles(t, filepath.Join(dir, "file-history"), "") {
		if r.IntN(12) == 0 {
			remove(t, p)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "file-history", folders[2].Name())); err != nil {
		t.Fatal(err)
	}

	// The second session that has subagents loses its transcript.
	var parents []string
	for _, p := range files {
		if strings.HasSuffix(p, "/subagents/"+filepath.Base(p)) {
			s := filepath.Dir(filepath.Dir(p)) + ".jsonl"
			if len(parents) == 0 || parents[len(parents)-1] != s {
				parents = append(parents, s)
			}
		}
	}
	if len(parents) < 2 {
		t.Fatalf("only %d sessions with subagents", len(parents))
	}
	remove(t, parents[1])

	// history.jsonl
	hist := filepath.Join(dir, "history.jsonl")
	data, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) < 20 {
		t.Fatalf("history.jsonl has %d lines", len(lines))
	}
	lines[5] = lines[5][:len(lines[5])/2]
	lines[9] = setField(lines[9], "sessionId", []byte("00000000-0000-4000-8000-000000000001"))
	if err := os.WriteFile(hist, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// walkFiles lists the files under dir whose names end in ext, in lexical order.
func walkFiles(t *testing.T, dir, ext string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func remove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// field returns the value of the first "key":"value" string in l, or nil.
func field(l []byte, key string) []byte {
	k := []byte(`"` + key + `":"`)
	i := bytes.Index(l, k)
	if i < 0 {
		return nil
	}
	v := l[i+len(k):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return nil
	}
	return v[:j]
}

// setField replaces the value of the first "key":<value> in l (a string or
// null) with the string v.
func setField(l []byte, key string, v []byte) []byte {
	k := []byte(`"` + key + `":`)
	i := bytes.Index(l, k)
	if i < 0 {
		return l
	}
	rest := l[i+len(k):]
	n := 0
	switch {
	case bytes.HasPrefix(rest, []byte("null")):
		n = 4
	case bytes.HasPrefix(rest, []byte(`"`)):
		j := bytes.IndexByte(rest[1:], '"')
		if j < 0 {
			return l
		}
		n = j + 2
	default:
		return l
	}
	out := append([]byte{}, l[:i+len(k)]...)
	out = append(out, '"')
	out = append(out, v...)
	out = append(out, '"')
	return append(out, rest[n:]...)
}

func writeGzip(t *testing.T, path string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// lineDiff shows the first line that differs between two reports.
func lineDiff(want, got []byte) string {
	w, g := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b []byte
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if !bytes.Equal(a, b) {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + string(a) + "\n  got  " + string(b)
		}
	}
	return "(no line differs)"
}

// skipVisibly skips t with msg, and says msg where a plain `go test ./...`
// shows it (internal/testnotice): a silent skip would look like a pass.
func skipVisibly(t *testing.T, msg string) {
	t.Helper()
	testnotice.Print(msg)
	t.Skip(msg)
}
