package fix

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/rules"
)

const corpusDir = "../../../shared/corpus/real"

// TestCorpus plans the real corpus: the files without a final newline get
// one "\n", the entireio checkpoint with a 2.91 s orphan gap one safe
// re-link, the one at 11.05 s only an unsafe one; every other file plans
// nothing. Writing the safe plan into a copy changes only those bytes, a
// second plan is empty, and undo restores every byte.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("real corpus not available: %v", err)
	}
	isolate(t)
	dir := filepath.Join(t.TempDir(), "corpus")
	copyTree(t, corpusDir, dir)
	before := hashTree(t, dir)
	res := planPaths(t, false, dir)

	noNewline := 0
	for p, b := range before {
		if strings.HasSuffix(p, ".jsonl") && len(b) > 0 && b[len(b)-1] != '\n' {
			noNewline++
		}
	}
	var planned []string
	bytesChanged := 0
	for _, f := range res.Files {
		if f.Err != nil {
			t.Errorf("%s: %v", f.File.Path, f.Err)
		}
		rel := f.File.Path
		var safeRules []string
		for _, fx := range f.Fixes {
			if fx.Fixable() && fx.Safety == rules.FixSafe {
				safeRules = append(safeRules, fx.Rule)
			}
			if fx.Rule == "orphan-parent" && fx.Fixable() {
				switch {
				case strings.Contains(rel, "entireio__cli/6d/e70163f7e3"), strings.Contains(rel, "entireio__cli/00/c9e2351016"):
					if fx.Safety != rules.FixSafe {
						t.Errorf("%s:%d: orphan-parent fix is %s, want safe", rel, fx.Line, fx.Safety)
					}
				case strings.Contains(rel, "entireio__cli/5d/107d133886"):
					if fx.Safety != rules.FixUnsafe || !strings.Contains(fx.Message, "11.05 s") {
						t.Errorf("%s:%d: orphan-parent fix is %s (%s), want unsafe at 11.05 s", rel, fx.Line, fx.Safety, fx.Message)
					}
				}
			}
		}
		if len(f.Edits) == 0 {
			continue
		}
		planned = append(planned, rel)
		for _, e := range f.Edits {
			bytesChanged += max(int(e.Length), len(e.Text))
		}
		sort.Strings(safeRules)
		want := "missing-final-newline"
		if strings.Contains(rel, "entireio__cli/6d/e70163f7e3") {
			want = "missing-final-newline orphan-parent"
		}
		if got := strings.Join(safeRules, " "); got != want {
			t.Errorf("%s: safe fixes %q, want %q", rel, got, want)
		}
	}
	if len(planned) != noNewline {
		t.Errorf("%d files planned, want the %d without a final newline", len(planned), noNewline)
	}
	t.Logf("corpus: %d files planned, %d bytes changed (inserted or replaced) (%d without a final newline)", len(planned), bytesChanged, noNewline)

	backups := filepath.Join(os.Getenv("XDG_STATE_HOME"), "ccvet", "backups")
	run := writeAll(t, res, backups)
	after := hashTree(t, dir)
	for _, f := range res.Files {
		if !f.Changed() {
			continue
		}
		got := []byte(after[f.File.OSPath])
		provenance(t, f.Orig, got, f.Edits)
		confined(t, f.Orig, got, f.Edits, "parentUuid")
	}
	for p, b := range before {
		changed := false
		for _, f := range res.Files {
			if f.Changed() && f.File.OSPath == p {
				changed = true
			}
		}
		if !changed && after[p] != b {
			t.Errorf("%s changed but was not planned", p)
		}
	}
	again := planPaths(t, false, dir)
	for _, f := range again.Files {
		if len(f.Edits) > 0 {
			t.Errorf("second plan of %s is not empty: %v", f.File.Path, f.Edits)
		}
	}
	// With --unsafe: every plan still verifies (or the file is left alone
	// with a reason), and the entireio checkpoint at 11.05 s gets its re-link.
	unsafe := planPaths(t, true, dir)
	nUnsafe := 0
	for _, f := range unsafe.Files {
		if f.Err != nil {
			t.Errorf("--unsafe plan of %s failed verification: %v", f.File.Path, f.Err)
		}
		for _, fx := range f.Fixes {
			if fx.Fixable() && fx.Safety == rules.FixUnsafe {
				nUnsafe++
			}
		}
	}
	t.Logf("corpus after the safe fixes: %d unsafe fixes planned with --unsafe", nUnsafe)
	st := &store.Store{Dir: backups, AllowLoose: true}
	if _, err := st.Undo(run.ID()); err != nil {
		t.Fatal(err)
	}
	restored := hashTree(t, dir)
	for p, b := range before {
		if restored[p] != b {
			t.Errorf("undo did not restore %s", p)
		}
	}
}

// TestFreshell is danshapiro/freshell's real broken 2.1.23 transcript: one
// safe re-link at a 0.46 s gap.
func TestFreshell(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	src := "../../testdata/fix/freshell/real-corrupted.jsonl"
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "real-corrupted.jsonl")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	res := planPaths(t, false, p)
	if len(res.Files) != 1 || len(res.Files[0].Edits) != 1 {
		t.Fatalf("want one file with one edit, got %+v", res.Files)
	}
	f := res.Files[0]
	fx := f.Fixes[f.Chosen[0]]
	if fx.Rule != "orphan-parent" || fx.Safety != rules.FixSafe || fx.Line != 4 || !strings.Contains(fx.Message, "0.46 s") {
		t.Fatalf("fix = %+v", fx)
	}
	writeAll(t, res, filepath.Join(dir, "backups"))
	got, _ := os.ReadFile(p)
	provenance(t, b, got, f.Edits)
	confined(t, b, got, f.Edits, "parentUuid")
	if again := planPaths(t, false, p); len(again.Files) != 0 && len(again.Files[0].Edits) != 0 {
		t.Fatalf("second plan not empty")
	}
}
