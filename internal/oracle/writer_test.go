//go:build unix

package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/cli"
)

// Finding is one finding of ccvet's JSON report (the fields the oracle reads).
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer"`
}

var cliMu sync.Mutex

// vet runs ccvet in-process on a data root with the given extra flags and
// returns its exit status and findings.
func vet(t *testing.T, root string, flags ...string) (int, []Finding) {
	t.Helper()
	cliMu.Lock()
	defer cliMu.Unlock()
	var out, errb bytes.Buffer
	args := append([]string{"--format", "json", "--no-config", "-q", "--color", "never"}, flags...)
	code := cli.Main(append(args, root), strings.NewReader(""), &out, &errb)
	var rep struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("ccvet %v: exit %d, output not JSON: %v\n%s\n%s", args, code, err, out.String(), errb.String())
	}
	return code, rep.Findings
}

// entryType names the type of the entry at path:line under root.
func entryType(root, path string, line int) string {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil || line < 1 {
		return "?"
	}
	lines := bytes.Split(b, []byte("\n"))
	if line > len(lines) {
		return "?"
	}
	var e struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(lines[line-1], &e)
	if e.Type == "" {
		return "(no type) " + filepath.Base(path)
	}
	return strconv.Quote(e.Type)
}

// TestWriterTruth: on what every covered version writes when nothing went
// wrong, ccvet reports no error and no warning and --strict passes; on a
// run killed mid-tool it reports exactly the expected rules. What a version
// writes that ccvet does not know is named (rule, field or type, version).
func TestWriterTruth(t *testing.T) {
	Require(t)
	ctx := context.Background()
	versions, err := Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			unknown := map[string][]string{} // "rule pointer/message" -> scenarios
			for _, sc := range Scenarios() {
				if !wantScenario(sc.Name) {
					continue
				}
				env, err := shared.Get(ctx, v, sc.Name)
				if err != nil {
					t.Errorf("%s %s: %v", v, sc.Name, err)
					continue
				}
				code, fs := vet(t, env.Root, "--strict")
				got := map[string]bool{}
				for _, f := range fs {
					if f.Severity != "error" && f.Severity != "warning" {
						// A note counts for an expected rule: a session
						// killed while a tool ran is a note for today's
						// reader, which closes the call (docs/rules.md).
						if slices.Contains(sc.Expect, f.Rule) {
							got[f.Rule] = true
						}
						continue
					}
					if f.Rule == "unknown-field" || f.Rule == "unknown-type" {
						k := f.Rule + " " + f.Message + " in " + entryType(env.Root, f.Path, f.Line)
						if !slices.Contains(unknown[k], sc.Name) {
							unknown[k] = append(unknown[k], sc.Name)
						}
						continue
					}
					got[f.Rule] = true
					if !slices.Contains(sc.Expect, f.Rule) && !slices.Contains(sc.Allow, f.Rule) {
						t.Errorf("%s %s: %s %s at %s:%d: %s", v, sc.Name, f.Severity, f.Rule, f.Path, f.Line, f.Message)
					}
				}
				for _, r := range sc.Expect {
					if !got[r] {
						t.Errorf("%s %s: expected a %s finding, got none", v, sc.Name, r)
					}
				}
				if sc.Healthy() && code != 0 && len(got) == 0 && len(unknown) == 0 {
					t.Errorf("%s %s: ccvet --strict exit %d without findings", v, sc.Name, code)
				}
			}
			if len(unknown) > 0 {
				keys := make([]string, 0, len(unknown))
				for k := range unknown {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				var b strings.Builder
				fmt.Fprintf(&b, "Claude Code %s writes %d things ccvet does not know (--strict fails):\n", v, len(keys))
				for _, k := range keys {
					fmt.Fprintf(&b, "  %s  (in %s)\n", k, strings.Join(unknown[k], ", "))
				}
				t.Error(b.String())
			}
		})
	}
}

// wantScenario reports whether $CCVET_ORACLE_SCENARIOS (a comma list; all
// when unset) names the scenario.
func wantScenario(name string) bool {
	list := os.Getenv("CCVET_ORACLE_SCENARIOS")
	return list == "" || slices.Contains(strings.Split(list, ","), name)
}
