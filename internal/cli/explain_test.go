package cli

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/rules"
)

func TestExplain(t *testing.T) {
	out, stderr, code := run(t, "", "explain", "orphan-parent")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, _ := rules.Lookup("orphan-parent")
	for _, want := range []string{
		"orphan-parent (error, on by default)\n\n`parentUuid` names an entry found in no transcript of the project.\n\nWhy it matters:\n  On resume",
		"\nBad:\n    " + r.Bad + "\n",
		"\nGood:\n    " + r.Good + "\n",
		"\nHow to fix:\n  Point parentUuid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 && !strings.HasPrefix(l, "    ") {
			t.Errorf("prose line over 80 columns: %q", l)
		}
	}
	// Every rule explains, with each part of its documentation.
	for _, r := range rules.All() {
		out, _, code := run(t, "", "explain", r.ID)
		if code != ExitOK || !strings.HasPrefix(out, r.ID+" (") || !strings.Contains(out, "Why it matters:") ||
			(r.Fix != "" && !strings.Contains(out, "How to fix:")) {
			t.Errorf("explain %s: exit %d\n%s", r.ID, code, out)
		}
	}
}

func TestExplainUnknown(t *testing.T) {
	cases := []struct{ arg, want string }{
		{"orphan-parnt", `ccvet: unknown rule "orphan-parnt"; did you mean orphan-parent`},
		{"nul", "did you mean escaped-nul, nul-bytes?"},
		{"zzzzzz", `ccvet: unknown rule "zzzzzz" (see ` + "`ccvet rules`)"},
	}
	for _, c := range cases {
		out, stderr, code := run(t, "", "explain", c.arg)
		if code != ExitUsage || out != "" || !strings.HasPrefix(stderr, c.want) && !strings.Contains(stderr, c.want) ||
			strings.Count(stderr, "\n") != 1 {
			t.Errorf("explain %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.arg, code, out, stderr, c.want)
		}
	}
	if _, stderr, code := run(t, "", "explain"); code != ExitUsage || !strings.Contains(stderr, "RULE") {
		t.Errorf("explain without RULE: exit %d, %q", code, stderr)
	}
	if _, stderr, code := run(t, "", "--enable", "orphan-parnt", "."); code != ExitUsage || !strings.Contains(stderr, "did you mean orphan-parent") {
		t.Errorf("--enable with a typo: exit %d, %q", code, stderr)
	}
}

// TestSchemaSuggests: an unknown schema name gets the closest names, as an
// unknown rule id does in explain; exit 2 either way.
func TestSchemaSuggests(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"asistant", `ccvet: no schema named "asistant"; did you mean assistant? (run ` + "`ccvet schema`" + ` for the list)` + "\n"},
		{"xyzzy", `ccvet: no schema named "xyzzy" (run ` + "`ccvet schema`" + ` for the list)` + "\n"},
	} {
		out, stderr, code := run(t, "", "schema", c.arg)
		if code != ExitUsage || out != "" || stderr != c.want {
			t.Errorf("schema %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.arg, code, out, stderr, c.want)
		}
	}
}
