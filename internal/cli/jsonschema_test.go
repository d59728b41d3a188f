package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/report"
)

// docSchemas compiles docs/schema/{lint,resume,sessions}.json, the JSON
// shapes documented as stable for scripts and host apps.
func docSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	dir := filepath.Join("..", "..", "docs", "schema")
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) { return nil, fmt.Errorf("no network in tests: %s", s) }
	names := []string{"lint", "resume", "sessions", "recover"}
	ids := map[string]string{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(data, &head); err != nil || !strings.HasSuffix(head.ID, "/docs/schema/"+n+".json") {
			t.Fatalf("%s.json: $id %q (%v)", n, head.ID, err)
		}
		ids[n] = head.ID
		if err := c.AddResource(head.ID, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, n := range names {
		s, err := c.Compile(ids[n])
		if err != nil {
			t.Fatalf("%s.json: %v", n, err)
		}
		out[n] = s
	}
	return out
}

func validateDoc(t *testing.T, s *jsonschema.Schema, what string, out []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s: the output does not match its schema in docs/schema: %#v", what, err)
	}
}

// TestJSONSchemas validates real output of lint, resume (with and without
// --check) and sessions against docs/schema/*.json, and pins
// schema_version.
func TestJSONSchemas(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	if report.SchemaVersion != 1 || inventory.SchemaVersion != report.SchemaVersion || JSONSchemaVersion != report.SchemaVersion {
		t.Fatalf("schema versions disagree: report %d, inventory %d, cli %d", report.SchemaVersion, inventory.SchemaVersion, JSONSchemaVersion)
	}
	schemas := docSchemas(t)
	testdata := filepath.Join("..", "..", "testdata")
	exec := func(args ...string) []byte {
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		if code == ExitUsage || code == ExitInternal {
			t.Fatalf("ccvet %v: exit %d: %s", args, code, stderr.String())
		}
		return stdout.Bytes()
	}

	// Lint: every rule fixture and the sample store, with baseline counts.
	validateDoc(t, schemas["lint"], "lint testdata", exec("--format", "json", "--exit-zero", testdata))
	validateDoc(t, schemas["lint"], "lint --strict", exec("--format", "json", "--exit-zero", "--strict", filepath.Join(testdata, "store")))
	base := filepath.Join(t.TempDir(), "baseline.json")
	exec("--exit-zero", "--write-baseline", base, filepath.Join(testdata, "store"))
	validateDoc(t, schemas["lint"], "lint --baseline", exec("--format", "json", "--exit-zero", "--baseline", base, filepath.Join(testdata, "store")))
	if _, err := os.Stat(corpusDir); err == nil {
		validateDoc(t, schemas["lint"], "lint corpus", exec("--format", "json", "--exit-zero", corpusDir))
	}

	// Resume: every transcript of the rule fixtures, resumed and checked.
	var n int
	_ = filepath.WalkDir(filepath.Join(testdata, "rules"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		n++
		validateDoc(t, schemas["resume"], "resume "+p, exec("resume", "--format", "json", p))
		validateDoc(t, schemas["resume"], "resume --check "+p, exec("resume", "--check", "--format", "json", p))
		return nil
	})
	if n < 50 {
		t.Errorf("only %d transcripts resumed", n)
	}
	root := lostRoot(t)
	for _, id := range []int{80, 81, 82, 83, 99} {
		validateDoc(t, schemas["resume"], "resume --check --root", exec("resume", "--check", "--format", "json", "--root", root, fixtureID(id)))
	}

	// --recover of every lost session of the lost fixture.
	for _, id := range []int{81, 82, 83} {
		out := filepath.Join(t.TempDir(), "rec")
		validateDoc(t, schemas["recover"], "sessions --recover", exec("sessions", "--recover", fixtureID(id), "--out", out, "--format", "json", root))
	}

	// Sessions: every fixture root.
	ents, err := os.ReadDir(sessionFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			r := sessionRoot(t, e.Name())
			validateDoc(t, schemas["sessions"], "sessions "+e.Name(), exec("sessions", "--format", "json", "--now", sessionsNow.Format(time.RFC3339), r))
		}
	}
}
