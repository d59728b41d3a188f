package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// TestPipedAgreement checks every file through the reading goroutine of
// checkLinesPiped (tiny batches, lines from 200 bytes alone) against the
// serial loop, over the corpus and every fixture, with the default rules
// and with every rule on: the findings and counts must be identical.
func TestPipedAgreement(t *testing.T) {
	every := map[string]bool{}
	for _, r := range rules.All() {
		every[r.ID] = true
	}
	saved := []int{batchBytes, batchLines, bigLine}
	savedMin, savedCopied := pipeMin, bigCopied
	defer func() {
		batchBytes, batchLines, bigLine, pipeMin, bigCopied = saved[0], saved[1], saved[2], savedMin, savedCopied
	}()
	batchBytes, batchLines, bigLine = 1000, 3, 200
	total := 0
	for _, paths := range referenceRoots(t) {
		// Long lines: each checked where the reader holds it (none
		// copied), some copied and some not, all copied.
		for k, o := range []Options{{Jobs: 2}, {Jobs: 2, Enabled: every}, {Jobs: 2}, {Jobs: 2}} {
			bigCopied = []int64{savedCopied, savedCopied, 0, 2000}[k]
			run := func(min int64) *Result {
				pipeMin = min
				e, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				found, err := layout.Discover(paths, "")
				if err != nil {
					t.Fatal(err)
				}
				return e.Run(found)
			}
			piped, serial := run(0), run(1<<62)
			if !reflect.DeepEqual(piped.Findings, serial.Findings) || piped.Files != serial.Files ||
				piped.Entries != serial.Entries || piped.Bytes != serial.Bytes {
				t.Errorf("%v: piped and serial differ: %d and %d findings, %d and %d entries",
					paths, len(piped.Findings), len(serial.Findings), piped.Entries, serial.Entries)
				for i := range min(len(piped.Findings), len(serial.Findings)) {
					if !reflect.DeepEqual(piped.Findings[i], serial.Findings[i]) {
						t.Errorf("first difference at %d:\n piped: %+v\nserial: %+v", i, piped.Findings[i], serial.Findings[i])
						break
					}
				}
			}
			total += len(piped.Findings)
		}
	}
	t.Logf("identical: %d findings", total)
}

// TestCollectorByRule: while a file's rules run at once, what each reports
// is added in rule order, each rule's findings in the order it reported
// them, whichever rule reported first.
func TestCollectorByRule(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []*rules.Rule
	for _, r := range e.rules {
		if r.File != nil && len(ids) < 3 {
			ids = append(ids, r)
		}
	}
	if len(ids) < 3 {
		t.Skip("fewer than three file rules on by default")
	}
	f := func(r *rules.Rule, msg string) finding.Finding {
		return finding.Finding{Rule: r.ID, Severity: r.Severity, Path: "p", Message: msg}
	}
	want := []finding.Finding{f(ids[0], "a1"), f(ids[0], "a2"), f(ids[1], "b1"), f(ids[2], "c1"), f(ids[2], "c2")}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {3, 2, 0, 4, 1}, {4, 3, 2, 1, 0}} {
		c := &collector{e: e, out: []finding.Finding{f(ids[1], "before")}}
		c.split()
		// Each rule's own findings keep their order: the later one of a
		// rule is emitted after its earlier one whatever the interleaving.
		seen := map[string]int{}
		for _, k := range order {
			r := want[k].Rule
			var same []finding.Finding
			for _, w := range want {
				if w.Rule == r {
					same = append(same, w)
				}
			}
			c.emit(same[seen[r]])
			seen[r]++
		}
		c.join(e.rules)
		if got := c.out[1:]; !reflect.DeepEqual(got, want) || c.out[0].Message != "before" {
			t.Errorf("emitted in order %v: got %+v", order, c.out)
		}
	}
}

// TestPipedSecrets: the secret rule's scan runs on the decoding goroutines
// of a piped file (rules.Rule.Early) and reports in file order: the same
// findings as the serial loop's scan, on a transcript holding fake keys
// (a key twice, two keys on a line, keys in escaped text, a torn line
// with a key) among lines without any.
func TestPipedSecrets(t *testing.T) {
	g := secrettest.New(7)
	keys := []string{g.AWS(), g.GitHub(), g.Anthropic(), g.Slack(), g.GCP()}
	var b strings.Builder
	uuid := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
	parent := "null"
	for i := 1; i <= 400; i++ {
		text := fmt.Sprintf("line %d of plain text, nothing to see", i)
		switch {
		case i%37 == 0:
			text = "deploy with " + keys[i%len(keys)] + " now"
		case i%53 == 0:
			text = "two: " + keys[0] + "\\nand\\t" + keys[(i/53)%len(keys)]
		case i == 200:
			text = "again " + keys[1]
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":"%s"},"uuid":"%s","timestamp":"2026-01-01T00:00:%02d.000Z","sessionId":"11111111-1111-4111-8111-111111111111","version":"2.1.100","cwd":"/w"}`+"\n",
			parent, text, uuid(i), i%60)
		parent = `"` + uuid(i) + `"`
		if i == 300 {
			b.WriteString(`{"parentUuid":"` + uuid(i) + `","type":"user","message":{"content":"torn ` + keys[3] + "\n")
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "projects", "-w", "11111111-1111-4111-8111-111111111111.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := []int{batchBytes, batchLines, bigLine}
	savedMin, savedCopied := pipeMin, bigCopied
	defer func() {
		batchBytes, batchLines, bigLine, pipeMin, bigCopied = saved[0], saved[1], saved[2], savedMin, savedCopied
	}()
	batchBytes, batchLines, bigLine, bigCopied = 4000, 7, 300, 1000
	run := func(min int64) []finding.Finding {
		pipeMin = min
		e, err := New(Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		found, err := layout.Discover([]string{dir}, "")
		if err != nil {
			t.Fatal(err)
		}
		return e.Run(found).Findings
	}
	piped, serial := run(0), run(1<<62)
	secrets := 0
	for _, f := range serial {
		if f.Rule == "secret" {
			secrets++
		}
	}
	if secrets < 5 {
		t.Fatalf("only %d secret findings on the serial loop: %+v", secrets, serial)
	}
	if !reflect.DeepEqual(piped, serial) {
		t.Errorf("piped and serial differ:\n piped: %+v\nserial: %+v", piped, serial)
	}
}
