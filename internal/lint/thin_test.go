package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/benchstore"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/rules"
)

// TestThinAgreement runs the engine as it is (files none of the project
// rules' Keeps asks for keep only their digest until the project closes)
// and with every file kept whole, over the fixtures and a
// one-folder generated store whose links across files are broken: the
// findings must be identical.
func TestThinAgreement(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	gen := t.TempDir()
	if _, err := benchstore.Generate(gen, benchstore.Options{Bytes: 3 << 20, Seed: 7, Projects: 1}); err != nil {
		t.Fatal(err)
	}
	breakLinks(t, gen)
	var roots [][]string
	for _, r := range referenceRoots(t) {
		if r[0] != corpusDir { // the corpus is compared through its goldens (internal/cli)
			roots = append(roots, r)
		}
	}
	roots = append(roots, []string{gen})
	every := map[string]bool{}
	for _, r := range rules.All() {
		every[r.ID] = true
	}
	engines := map[[2]bool]*Engine{} // [all rules, whole]
	for _, all := range []bool{false, true} {
		for _, whole := range []bool{false, true} {
			o := Options{}
			if all {
				o.Enabled = every
			}
			e, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			e.whole = whole
			e.thinFrom = 0 // every folder thin, however small: the path under test
			engines[[2]bool{all, whole}] = e
		}
	}
	total := 0
	for _, paths := range roots {
		for _, all := range []bool{false, true} {
			run := func(whole bool) *Result {
				e := engines[[2]bool{all, whole}]
				found, err := layout.Discover(paths, "")
				if err != nil {
					t.Fatal(err)
				}
				return e.Run(found)
			}
			thin, whole := run(false), run(true)
			if !reflect.DeepEqual(thin.Findings, whole.Findings) {
				t.Errorf("%v: %d findings with digests, %d with every file whole", paths, len(thin.Findings), len(whole.Findings))
				continue
			}
			total += len(thin.Findings)
			if paths[0] == gen && !all {
				n := map[string]int{}
				for _, f := range thin.Findings {
					n[f.Rule]++
				}
				t.Logf("generated store: %v", n)
			}
		}
	}
	t.Logf("identical: %d findings", total)
}

// breakLinks changes, in every fourth transcript of dir, the first
// character of two in three parentUuid, logicalParentUuid, leafUuid,
// sourceToolAssistantUUID and tool_use_id values (only the first of each
// in half of those files): names that then resolve nowhere, or in another
// file.
func breakLinks(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "projects", "*", "*.jsonl"))
	if len(files) < 8 {
		t.Fatalf("only %d transcripts generated", len(files))
	}
	for i, f := range files {
		if i%4 != 0 {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{`"parentUuid":"`, `"logicalParentUuid":"`, `"leafUuid":"`, `"sourceToolAssistantUUID":"`, `"tool_use_id":"toolu_`} {
			n := 0
			for off := 0; ; {
				j := bytes.Index(data[off:], []byte(k))
				if j < 0 || (i%8 == 0 && n == 2) {
					break // every eighth file: one broken name of each kind (a file read again)
				}
				off += j + len(k)
				if n++; n%3 != 0 && off < len(data) {
					data[off] = '0' + (data[off]+byte(i))%10
				}
			}
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestThinSharedRun: a run of another session's entries inside a
// transcript's own is explained when its first entry is in another file
// too (a copy); the file stays thin, and is read again when it is not.
func TestThinSharedRun(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const (
		sa = "11111111-1111-4111-8111-111111111111" // a session with a transcript
		sx = "22222222-2222-4222-8222-222222222222" // the transcript checked
		sy = "33333333-3333-4333-8333-333333333333" // a session with none
	)
	u := func(i int) string { return "aaaaaaaa-0000-4000-8000-00000000000" + string(rune('0'+i)) }
	line := func(typ, uuid, parent, sid string, sec int) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/p","sessionId":"` + sid +
			`","version":"2.1.0","type":"` + typ + `","message":{"role":"` + typ + `","content":"x"},"uuid":"` + uuid +
			`","timestamp":"2025-01-01T00:00:0` + string(rune('0'+sec)) + `.000Z"}` + "\n"
	}
	for _, shared := range []bool{true, false} {
		dir := t.TempDir()
		proj := filepath.Join(dir, "projects", "-p")
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		a := line("user", u(1), "", sa, 1) + line("assistant", u(2), u(1), sa, 2) + line("user", u(3), u(2), sa, 3)
		copied := u(2)
		if !shared {
			copied = u(9)
		}
		x := line("user", u(4), "", sx, 4) + line("assistant", copied, u(4), sy, 5) + line("user", u(5), copied, sx, 6)
		for name, data := range map[string]string{sa: a, sx: x} {
			if err := os.WriteFile(filepath.Join(proj, name+".jsonl"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var got [2][]string
		for i, whole := range []bool{false, true} {
			e, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			e.whole = whole
			e.thinFrom = 0 // thin however small the folder
			found, err := layout.Discover([]string{dir}, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range e.Run(found).Findings {
				got[i] = append(got[i], f.Rule+": "+f.Message)
			}
		}
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Errorf("shared=%v: digests %q, whole %q", shared, got[0], got[1])
		}
		n := 0
		for _, s := range got[0] {
			if strings.HasPrefix(s, "session-mismatch:") {
				n++
			}
		}
		if want := map[bool]int{true: 0, false: 1}[shared]; n != want {
			t.Errorf("shared=%v: %d session-mismatch findings, want %d: %q", shared, n, want, got[0])
		}
	}
}
