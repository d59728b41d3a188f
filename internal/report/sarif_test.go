package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
)

var (
	update   = flag.Bool("update", false, "rewrite the golden files in testdata/")
	validate = flag.String("validate", "", "comma-separated SARIF files for TestSARIFSchema to validate too (CI passes ccvet's own output)")
)

// sarifSchemaPath is the official SARIF 2.1.0 schema, outside the repository:
// CI clones it to X/main next to X/shared.
const sarifSchemaPath = "../../../shared/schemas/sarif-2.1.0.json"

// testRules is a small catalogue: a rule off by default, one whose prose holds
// a code fence, one whose prose holds angle brackets and code spans, and a
// one-word id (whose rule goes without a name).
var testRules = []RuleInfo{
	{ID: "blank-line", Severity: finding.Warning, Enabled: true, Summary: "an empty or white-space-only line",
		Why: "Claude Code never writes blank lines.", Fix: "Delete the blank line.",
		Bad: "{\"type\":\"user\"}\n\n{\"type\":\"assistant\"}\n", Good: "{\"type\":\"user\"}\n{\"type\":\"assistant\"}\n"},
	{ID: "duplicate-uuid", Severity: finding.Error, Enabled: true, Summary: "two entries share a uuid",
		Why: "Resuming follows the wrong branch.", Fix: "Remove the second copy; it is written as ```json```.",
		Bad: "{\"uuid\":\"a\"}\n{\"uuid\":\"a\"}", Good: "{\"uuid\":\"a\"}\n{\"uuid\":\"b\"}"},
	{ID: "invalid-filename", Severity: finding.Warning, Enabled: true,
		Summary: "a transcript in projects/ is not named <session-uuid>.jsonl",
		Why:     "Claude Code lists sessions by file name (`claude --resume` shows only `<uuid>.jsonl`) & ignores the rest.",
		Fix:     "Rename the file to <session-uuid>.jsonl; a lone ` is text."},
	{ID: "schema", Severity: finding.Error, Enabled: true, Summary: "an entry does not match the JSON Schema of its type",
		Why: "Readers of the transcript may fail on it."},
	{ID: "truncated-line", Severity: finding.Error, Enabled: true, Summary: "the last line is cut off",
		Why: "A crash during an append left half a line.", Fix: "Delete the partial line."},
	{ID: "unknown-field", Severity: finding.Warning, Enabled: false,
		Summary: "a field that no schema declares", Why: "A newer Claude Code version, or a typo."},
}

func sarifCases() map[string]*Run {
	return map[string]*Run{
		"empty": {Version: "v0.1.0", Rules: testRules},
		"findings": {Version: "v0.1.0 (0123456789ab-dirty)", Files: 3, Entries: 12, Rules: testRules, Findings: []finding.Finding{
			{Rule: "truncated-line", Severity: finding.Error, Path: "history.jsonl",
				Message: "the last line is cut off after 17 bytes"},
			{Rule: "blank-line", Severity: finding.Warning, Path: "projects/-home-zoë/my session.jsonl", Line: 4, Column: 1,
				Message: "blank line"},
			{Rule: "blank-line", Severity: finding.Warning, Path: "projects/-home-zoë/my session.jsonl", Line: 9, Column: 1,
				Message: "blank line"},
			{Rule: "duplicate-uuid", Severity: finding.Error, Path: "projects/p/100%#1?.jsonl", Line: 7, Column: 2,
				Pointer: "/uuid", UUID: "0b5c1f3e-4a7e-4f7e-9a51-3d2b9c1e0f11",
				Message: "uuid 0b5c1f3e-4a7e-4f7e-9a51-3d2b9c1e0f11 was already used on line 3",
				Related: []finding.Location{{Path: "projects/p/100%#1?.jsonl", Line: 3, Column: 2, Pointer: "/uuid",
					Message: "first use"}}},
			{Rule: "unknown-field", Severity: finding.Warning, Path: "projects/p/a.jsonl", Line: 2, Column: 15,
				Pointer: "/evil", UUID: "u1",
				Message: "unknown field \"\x1b[31mred\x1b[0m\" with \x00, \t, \x7f, \u0085, \u2028, \u202e, \xff and </script>&amp;"},
		}},
		"fixes": {Version: "v0.1.0", Rules: testRules, Findings: []finding.Finding{
			{Rule: "blank-line", Severity: finding.Warning, Path: "projects/p/s.jsonl", Line: 4, Column: 1, Message: "blank line",
				Fix: &finding.Fix{Safety: "safe", Message: "delete the blank line", Edits: []edit.Edit{{Offset: 812, Length: 3}}}},
			{Rule: "missing-final-newline", Severity: finding.Warning, Path: "projects/p/s.jsonl", Line: 9, Column: 40,
				Message: "last line has no terminating newline",
				Fix:     &finding.Fix{Safety: "safe", Message: "append a newline", Edits: []edit.Edit{{Offset: 2048, Text: "\n"}}}},
			{Rule: "orphan-parent", Severity: finding.Error, Path: "projects/p/s.jsonl", Line: 7, Column: 15, Message: "parentUuid names no entry",
				Fix: &finding.Fix{Safety: "safe", Message: "re-link parentUuid", Edits: []edit.Edit{{Offset: 1500, Length: 36, Text: "d8a0868e-cd15-437c-80fb-fd5c3e23495f"}}}},
			{Rule: "invalid-json", Severity: finding.Error, Path: "projects/p/s.jsonl", Line: 8, Column: 3, Message: "line is not valid JSON",
				Fix: &finding.Fix{Safety: "safe", Message: "odd bytes", Edits: []edit.Edit{{Offset: 1700, Length: 1, Text: "\xff"}}}},
		}},
		"paths": {Version: "(devel)", Rules: testRules, Findings: []finding.Finding{
			{Rule: "blank-line", Severity: finding.Warning, Path: "../elsewhere/a b.jsonl", Line: 1, Column: 1, Message: "blank line"},
			{Rule: "blank-line", Severity: finding.Warning, Path: "/abs/dir/a b.jsonl", Line: 1, Column: 1, Message: "blank line"},
			{Rule: "blank-line", Severity: finding.Warning, Path: "C:/Users/zoë/x.jsonl", Line: 1, Column: 1, Message: "blank line"},
			{Rule: "not-in-catalogue", Severity: finding.Note, Path: "<stdin>", Line: 1, Column: 1, Message: "from a newer ccvet"},
		}},
	}
}

// withDrivePaths sets, for the rest of the test, whether "C:/x" is an
// absolute path (Windows) or a relative one (elsewhere).
func withDrivePaths(t *testing.T, windows bool) {
	t.Helper()
	old := drivePaths
	drivePaths = windows
	t.Cleanup(func() { drivePaths = old })
}

func TestSARIFGolden(t *testing.T) {
	// The golden files are the same on every system: as written on Unix,
	// where "C:/Users/…" is a relative path.
	withDrivePaths(t, false)
	for name, run := range sarifCases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := SARIF(&buf, run); err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := SARIF(&again, run); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), again.Bytes()) {
				t.Fatal("two runs over the same findings gave different bytes")
			}
			golden := filepath.Join("testdata", name+".sarif")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the output (run with -update after a deliberate change):\n%s", golden, buf.String())
			}
			checkSARIFInvariants(t, run, buf.Bytes())
		})
	}
}

// TestSARIFSchema validates every golden file against the official SARIF
// schema, compiled from the file next to the repository without the network.
func TestSARIFSchema(t *testing.T) {
	schema := sarifSchemaValidator(t)
	goldens, err := filepath.Glob(filepath.Join("testdata", "*.sarif"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden SARIF files in testdata (%v)", err)
	}
	if *validate != "" {
		goldens = append(goldens, strings.Split(*validate, ",")...)
	}
	for _, golden := range goldens {
		data, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := decodeJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", golden, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s does not match the SARIF schema: %#v", golden, err)
		}
	}
	// The schema must catch what it is here to catch.
	bad := []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ccvet"}},"results":[{"message":{"text":"x"},"level":"fatal"}]}]}`)
	doc, err := decodeJSON(bad)
	if err != nil {
		t.Fatal(err)
	}
	if schema.Validate(doc) == nil {
		t.Error("the schema accepted a result with level \"fatal\"")
	}
}

// decodeJSON decodes data for the validator, keeping numbers exact.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// sarifSchemaValidator compiles the official SARIF schema (draft-04, with an
// "id"), registered as a resource under its id so nothing is fetched; it
// skips the test when the schema is absent, unless -validate asks for a check.
func sarifSchemaValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(sarifSchemaPath)
	if os.IsNotExist(err) && *validate == "" {
		t.Skipf("no SARIF schema at %s", sarifSchemaPath)
	}
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Schema string `json:"$schema"`
		ID     string `json:"id"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		t.Fatal(err)
	}
	if head.Schema != "http://json-schema.org/draft-04/schema#" || head.ID == "" {
		t.Fatalf("%s: want a draft-04 schema with an id, got $schema %q, id %q", sarifSchemaPath, head.Schema, head.ID)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft4
	c.AssertFormat = true
	c.LoadURL = func(s string) (rc io.ReadCloser, err error) {
		return nil, fmt.Errorf("no network in tests: %s", s)
	}
	if err := c.AddResource(head.ID, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(head.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkSARIFInvariants checks what the schema cannot: indices, URIs and fingerprints.
func checkSARIFInvariants(t *testing.T, run *Run, out []byte) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string `json:"id"`
						Name string `json:"name"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	r := log.Runs[0]
	for i, ri := range run.Rules {
		if got := r.Tool.Driver.Rules[i].ID; got != ri.ID {
			t.Errorf("rules[%d] = %s, want %s (the whole catalogue, in order)", i, got, ri.ID)
		}
	}
	if len(r.Results) != len(run.Findings) {
		t.Fatalf("%d results for %d findings", len(r.Results), len(run.Findings))
	}
	fps := map[string]bool{}
	for i, res := range r.Results {
		f := run.Findings[i]
		if res.RuleIndex >= len(r.Tool.Driver.Rules) || r.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID || res.RuleID != f.Rule {
			t.Errorf("result %d: ruleId %s, ruleIndex %d does not point at it", i, res.RuleID, res.RuleIndex)
		}
		if res.Message.Text != strings.ToValidUTF8(f.Message, "\uFFFD") {
			t.Errorf("result %d: message %q, want %q", i, res.Message.Text, f.Message)
		}
		uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI
		u, err := url.Parse(uri)
		if err != nil || strings.ContainsAny(uri, " \\#?") {
			t.Errorf("result %d: uri %q is not a clean URI reference: %v", i, uri, err)
			continue
		}
		want := f.Path
		if u.IsAbs() {
			want = strings.TrimPrefix(f.Path, "/")
			if got := strings.TrimPrefix(u.Path, "/"); got != want {
				t.Errorf("result %d: uri %q decodes to %q, want %q", i, uri, got, want)
			}
			if res.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID != "" {
				t.Errorf("result %d: absolute uri %q with a uriBaseId", i, uri)
			}
		} else if u.Path != want {
			t.Errorf("result %d: uri %q decodes to %q, want %q", i, uri, u.Path, want)
		}
		fp := res.PartialFingerprints[sarifFingerprint]
		if !regexp.MustCompile(`^[0-9a-f]{64}:[1-9][0-9]*$`).MatchString(fp) {
			t.Errorf("result %d: fingerprint %q", i, fp)
		}
		if fps[fp] {
			t.Errorf("result %d: fingerprint %q used twice", i, fp)
		}
		fps[fp] = true
	}
}

func TestPathURI(t *testing.T) {
	withDrivePaths(t, true) // "C:/Users/…" below is a Windows path
	for _, c := range []struct{ in, want string }{
		{"history.jsonl", "history.jsonl"},
		{"projects/-home-u/a b.jsonl", "projects/-home-u/a%20b.jsonl"},
		{"100%.jsonl", "100%25.jsonl"},
		{"zoë/日本.jsonl", "zo%C3%AB/%E6%97%A5%E6%9C%AC.jsonl"},
		{"a#b?c.jsonl", "a%23b%3Fc.jsonl"},
		{"a:b/c:d", "a%3Ab/c%3Ad"}, // a colon in the first segment would read as a scheme
		{"tab\there\n", "tab%09here%0A"},
		{`back\slash[1]{x}<y>|"q"^` + "`", "back%5Cslash%5B1%5D%7Bx%7D%3Cy%3E%7C%22q%22%5E%60"},
		{"keep-._~!$&'()*+,;=@", "keep-._~!$&'()*+,;=@"},
		{"../up/a b.jsonl", "../up/a%20b.jsonl"},
		{"<stdin>", "%3Cstdin%3E"},
		{"/abs/a b.jsonl", "file:///abs/a%20b.jsonl"},
		{"/", "file:///"},
		{"C:/Users/zoë/x.jsonl", "file:///C:/Users/zo%C3%AB/x.jsonl"},
		{"//server/share/x y", "file://server/share/x%20y"},
		{"\xff.jsonl", "%FF.jsonl"},
		{"", ""},
	} {
		if got := pathURI(c.in); got != c.want {
			t.Errorf("pathURI(%q) = %q, want %q", c.in, got, c.want)
		}
		if c.in == "" || c.in == "\xff.jsonl" {
			continue
		}
		u, err := url.Parse(pathURI(c.in))
		if err != nil {
			t.Errorf("pathURI(%q) = %q: %v", c.in, pathURI(c.in), err)
			continue
		}
		back := u.Path
		if u.Host != "" {
			back = "//" + u.Host + back
		} else if u.Scheme == "file" && isDrivePath(strings.TrimPrefix(back, "/")) {
			back = strings.TrimPrefix(back, "/")
		}
		if back != c.in {
			t.Errorf("pathURI(%q) = %q decodes to %q", c.in, pathURI(c.in), back)
		}
	}
}

// TestPathURIDriveLetterOffWindows: outside Windows, "C:/x" is a relative
// path whose first folder is named "C:" (a legal name there), so its URI is
// relative to %SRCROOT%, the colon escaped, not an absolute file:///C:/x.
func TestPathURIDriveLetterOffWindows(t *testing.T) {
	withDrivePaths(t, false)
	for in, want := range map[string]string{
		"C:/x y/a.jsonl": "C%3A/x%20y/a.jsonl",
		"c:/a.jsonl":     "c%3A/a.jsonl",
		"/C:/a.jsonl":    "file:///C%3A/a.jsonl",
	} {
		loc := artifactLocation(in)
		wantBase := sarifSrcRoot
		if strings.HasPrefix(in, "/") {
			wantBase = ""
		}
		if loc.URI != want || loc.URIBaseID != wantBase {
			t.Errorf("artifactLocation(%q) = %q, base %q; want %q, base %q", in, loc.URI, loc.URIBaseID, want, wantBase)
		}
	}
}

// TestPathURILeadingSlashesOffWindows: outside Windows, "//tmp/x" (a
// script's "$DIR/x" with DIR=/) is the absolute path /tmp/x, not a UNC path
// naming a server "tmp": its URI is file:///tmp/x.
func TestPathURILeadingSlashesOffWindows(t *testing.T) {
	withDrivePaths(t, false)
	for in, want := range map[string]string{
		"//tmp/a b.jsonl": "file:///tmp/a%20b.jsonl",
		"///x/y.jsonl":    "file:///x/y.jsonl",
		"//":              "file:///",
	} {
		if got := pathURI(in); got != want {
			t.Errorf("pathURI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolVersion(t *testing.T) {
	for _, c := range []struct{ in, version, semver string }{
		{"v0.1.0", "0.1.0", "0.1.0"},
		{"1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5"},
		{"v0.1.0 (0123456789ab-dirty)", "0.1.0 (0123456789ab-dirty)", "0.1.0"},
		{"v0.0.0-20260101120000-0123456789ab+dirty", "0.0.0-20260101120000-0123456789ab+dirty", "0.0.0-20260101120000-0123456789ab+dirty"},
		{"(devel)", "0.0.0-devel", "0.0.0-devel"},
		{"(devel) (0123456789ab)", "0.0.0-devel (0123456789ab)", "0.0.0-devel"},
		{"", "0.0.0-devel", "0.0.0-devel"},
		{"(built without version information)", "0.0.0-devel", "0.0.0-devel"},
		{"v1.2", "1.2", ""},
		{"01.2.3", "01.2.3", ""},
		{"version", "version", ""},
	} {
		v := toolVersion(c.in)
		if v != c.version {
			t.Errorf("toolVersion(%q) = %q, want %q", c.in, v, c.version)
		}
		if got := semanticVersion(v); got != c.semver {
			t.Errorf("semanticVersion(%q) = %q, want %q", v, got, c.semver)
		}
	}
}

func TestPascalCase(t *testing.T) {
	for in, want := range map[string]string{"invalid-json": "InvalidJson", "invalid-utf8": "InvalidUtf8", "schema": "Schema", "nul-bytes": "NulBytes"} {
		if got := pascalCase(in); got != want {
			t.Errorf("pascalCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"a <b> & c":               "a &lt;b&gt; &amp; c",
		"run `a <b>` then <c>":    "run `a <b>` then &lt;c&gt;",
		"``x ` <y>`` <z>":         "``x ` <y>`` &lt;z&gt;",
		"a lone ` and <x>":        "a lone ` and &lt;x&gt;",
		"`<a>` and `<b>` and <c>": "`<a>` and `<b>` and &lt;c&gt;",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownFence(t *testing.T) {
	if got := mdCode("a ```b``` c"); !strings.HasPrefix(got, "````\n") || !strings.HasSuffix(got, "\n````") {
		t.Errorf("mdCode did not lengthen the fence: %q", got)
	}
}

func TestSARIFEscapesInvisible(t *testing.T) {
	run := &Run{Version: "v1.0.0", Findings: []finding.Finding{{Rule: "x", Severity: finding.Error, Path: "a\u202eb.jsonl",
		Line: 1, Column: 1, Message: "a\x1b[2J\x7f\u0085\u200f\u202e\u2066\xffz é 日本 😀"}}}
	var buf bytes.Buffer
	if err := SARIF(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, raw := range []string{"\x1b", "\x7f", "\u0085", "\u200f", "\u202e", "\u2066", "\ufffd"} {
		if strings.Contains(out, raw) {
			t.Errorf("the output holds a raw %q", raw)
		}
	}
	want := `"text": "a\u001b[2J\u007f\u0085\u200f\u202e\u2066\ufffdz é 日本 😀"`
	if !strings.Contains(out, want) {
		t.Errorf("the output lacks %s:\n%s", want, out)
	}
	var v any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
}

// A brace in a message is placeholder syntax in SARIF (§3.11.5): a
// literal one is written doubled, in the result's message, a related
// location's and a fix's description; rule descriptions are not message
// objects and keep theirs.
func TestSARIFMessageBraces(t *testing.T) {
	run := &Run{Version: "v1.0.0", Rules: []RuleInfo{{ID: "x", Severity: finding.Error, Enabled: true, Summary: "a {b} rule"}},
		Findings: []finding.Finding{{Rule: "x", Severity: finding.Error, Path: "a.jsonl", Line: 1, Column: 1,
			Message: `entry does not start with {"parentUuid": {0}`,
			Related: []finding.Location{{Line: 2, Message: "see {1}"}},
			Fix:     &finding.Fix{Safety: "safe", Message: "drop }", Edits: []edit.Edit{{Offset: 0, Length: 1}}}}}}
	var buf bytes.Buffer
	if err := SARIF(&buf, run); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ShortDescription struct{ Text string }
					}
				}
			}
			Results []struct {
				Message          struct{ Text string }
				RelatedLocations []struct{ Message struct{ Text string } }
				Fixes            []struct{ Description struct{ Text string } }
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0].Results[0]
	for _, c := range []struct{ got, want string }{
		{r.Message.Text, `entry does not start with {{"parentUuid": {{0}}`},
		{r.RelatedLocations[0].Message.Text, "see {{1}}"},
		{r.Fixes[0].Description.Text, "[safe] drop }}"},
		{log.Runs[0].Tool.Driver.Rules[0].ShortDescription.Text, "A {b} rule."},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
