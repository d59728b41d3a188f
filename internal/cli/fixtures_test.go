package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

// jsonOut is the part of the JSON report the tests look at.
type jsonOut struct {
	Tool     map[string]string `json:"tool"`
	Findings []struct {
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Message  string `json:"message"`
		Pointer  string `json:"pointer"`
	} `json:"findings"`
	Summary map[string]int `json:"summary"`
}

// runJSON runs the whole command in-process and decodes its JSON report.
func runJSON(t *testing.T, args ...string) (jsonOut, []byte, int) {
	t.Helper()
	out, b, _, code := runJSONStderr(t, args...)
	return out, b, code
}

// runJSONStderr is runJSON that also returns what went to standard error.
func runJSONStderr(t *testing.T, args ...string) (jsonOut, []byte, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"--format", "json"}, args...), strings.NewReader(""), &stdout, &stderr)
	if code > 1 {
		t.Fatalf("ccvet %v: exit %d: %s", args, code, stderr.String())
	}
	data := stripArg(stdout.Bytes(), args)
	var out jsonOut
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("ccvet %v: bad JSON: %v\n%s", args, err, stdout.String())
	}
	return out, normalize(data), stderr.String(), code
}

// stripArg makes the paths of a run over one folder relative to it, as the
// golden files hold them: ccvet prints them from the current folder (the
// package folder for tests), starting with the argument.
func stripArg(b []byte, args []string) []byte {
	if len(args) == 0 {
		return b
	}
	last := args[len(args)-1]
	if st, err := os.Stat(last); err != nil || !st.IsDir() {
		return b
	}
	for _, a := range args[:len(args)-1] {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			return b // several folders: paths keep their argument
		}
	}
	prefix := strings.TrimSuffix(filepath.ToSlash(last), "/") + "/"
	return bytes.ReplaceAll(b, []byte(`"`+prefix), []byte(`"`))
}

// normalize removes what changes between builds (the version), and the
// schema_version (pinned by TestJSONSchemas, so that the golden files do
// not all change when it does).
func normalize(b []byte) []byte {
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return b
	}
	delete(doc, "schema_version")
	if tool, ok := doc["tool"].(map[string]any); ok {
		tool["version"] = "VERSION"
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	return append(out, '\n')
}

// expandSecrets returns dir, or, when a file of it holds a slot for a key
// ({{secrettest.Generic(25)}}: no key is committed), a copy of it in a
// temporary folder with every slot filled by secrettest.Expand (the same
// key each run, so the golden's fingerprint holds).
func expandSecrets(t *testing.T, dir string) string {
	t.Helper()
	slots := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !slots {
			data, rerr := os.ReadFile(p)
			slots = rerr == nil && secrettest.Expanding(data)
		}
		return nil
	})
	if !slots {
		return dir
	}
	cp := filepath.Join(t.TempDir(), filepath.Base(dir))
	copyTreeTimes(t, dir, cp)
	err := filepath.WalkDir(cp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || !secrettest.Expanding(data) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if data, err = secrettest.Expand(data); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		return os.Chtimes(p, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

// TestRuleFixtures runs every case under testdata/rules/<rule>/<case>/ through
// the CLI's JSON output. A case named bad* must trigger <rule>; a case named
// good* must trigger neither <rule> nor any error. <case>.golden.json holds
// the exact expected report (go test ./internal/cli -update rewrites it);
// <case>.args, if present, holds extra flags, one per line.
func TestRuleFixtures(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	root := filepath.Join("..", "..", "testdata", "rules")
	ruleDirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, rd := range ruleDirs {
		if !rd.IsDir() {
			continue
		}
		id := rd.Name()
		if _, ok := rules.Lookup(id); !ok {
			t.Errorf("testdata/rules/%s: no such rule", id)
			continue
		}
		cases, _ := os.ReadDir(filepath.Join(root, id))
		for _, c := range cases {
			if !c.IsDir() {
				continue
			}
			name := c.Name()
			dir := filepath.Join(root, id, name)
			t.Run(id+"/"+name, func(t *testing.T) {
				args := []string{"--enable", id}
				if extra, err := os.ReadFile(dir + ".args"); err == nil {
					for _, a := range strings.Split(strings.TrimSpace(string(extra)), "\n") {
						if a = strings.TrimSpace(a); a != "" {
							args = append(args, a)
						}
					}
				}
				args = append(args, expandSecrets(t, dir))
				out, got, _ := runJSON(t, args...)
				hits, errs := 0, 0
				for _, f := range out.Findings {
					if f.Rule == id {
						hits++
					}
					if f.Severity == "error" && f.Rule != id {
						errs++
					}
				}
				switch {
				case strings.HasPrefix(name, "bad"):
					covered[id+"/bad"] = true
					if hits == 0 {
						t.Errorf("bad case: no %s finding:\n%s", id, got)
					}
				case strings.HasPrefix(name, "good"):
					covered[id+"/good"] = true
					if hits > 0 || errs > 0 {
						t.Errorf("good case: %d %s findings and %d other errors:\n%s", hits, id, errs, got)
					}
				default:
					t.Errorf("case %q: name must start with bad or good", name)
				}
				golden := dir + ".golden.json"
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/cli -update)", err)
				}
				if !bytes.Equal(want, got) {
					t.Errorf("output differs from %s (run go test ./internal/cli -update to accept):\n%s", golden, got)
				}
			})
		}
	}
	// Some inputs cannot live in git (an 11 MB line, a file root cannot be
	// denied): tests build them on the fly.
	// Links would trip every test that walks testdata.
	for _, c := range []string{"oversized/bad", "unreadable/bad", "unfollowed-link/bad"} {
		covered[c] = true // TestOversizedLine, TestUnreadable, TestLinksLeakNothing
	}
	// Every rule needs a fixture that triggers it and one that must not.
	var missing []string
	for _, r := range rules.All() {
		for _, kind := range []string{"bad", "good"} {
			if !covered[r.ID+"/"+kind] {
				missing = append(missing, r.ID+"/"+kind)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 && !t.Failed() {
		t.Errorf("rules without fixtures: %s", strings.Join(missing, ", "))
	}
}
