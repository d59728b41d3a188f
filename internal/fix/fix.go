// Package fix drives a repair run: lint, plan, apply in memory, loop to convergence and verify, before anything is written.
package fix

import (
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/fix/plan"
	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/rules"
)

// MaxPasses bounds the plan-apply-relint loop.
const MaxPasses = 5

// MaxBytes is the largest file fix plans on: it holds a file's bytes and
// each pass's result in memory.
const MaxBytes = 1 << 30

// Options say what a run may fix.
type Options struct {
	Lint   lint.Options
	Unsafe bool            // apply unsafe fixes too
	Select map[string]bool // fix only these rules (empty: all)
	Ignore map[string]bool // never fix these rules
	// Check, if set, runs after the built-in verification of each changed
	// file; an error fails the file like a failed verification (tests).
	Check func(*File) error
}

// Wants reports whether Select and Ignore leave rule's fixes in the run.
func (o *Options) Wants(rule string) bool {
	if o.Ignore[rule] {
		return false
	}
	return len(o.Select) == 0 || o.Select[rule]
}

// File is one file's plan and, when it converged and verified, its new bytes.
type File struct {
	File     *layout.File
	Orig     []byte
	Findings []finding.Finding // the first lint's findings on this file
	Fixes    []plan.Fix        // one per finding, first pass
	Chosen   []int             // indexes into Fixes applied in the first pass
	Dropped  []int             // indexes into Fixes left out: overlapping another fix
	Edits    []edit.Edit       // every pass composed, against Orig
	New      []byte            // Orig with Edits
	Passes   int
	Later    []Step // fixes applied in passes after the first
	Err      error  // the plan did not converge or failed verification: nothing may be written
}

// Step is a fix applied in a later pass, against that pass's bytes.
type Step struct {
	Pass  int
	Fix   plan.Fix
	Edits []string // each edit described against the pass's bytes
}

// Changed reports whether the plan changes the file.
func (f *File) Changed() bool { return f.Err == nil && len(f.Edits) > 0 }

// Result is a planned run.
type Result struct {
	Findings []finding.Finding // the first lint, each with its Fix
	Files    []*File           // files with at least one finding, in path order
	Final    []finding.Finding // the lint of the planned bytes
	Lint     *lint.Result
}

// Plan lints found, plans the fixes, applies them in memory until a new plan
// is empty, and verifies every changed file. It reads files, never writes.
func Plan(found *layout.Result, opts Options) (*Result, error) {
	lo := opts.Lint
	if lo.MaxPerFile == 0 || lo.MaxPerFile > MaxFindings {
		lo.MaxPerFile = MaxFindings
		lo.MoreHint = "and ccvet fix plans no file with more of a rule it repairs"
	}
	eng, err := lint.New(lo)
	if err != nil {
		return nil, err
	}
	return PlanWith(eng, found, opts)
}

// MaxFindings is how many findings of one rule in one file Plan's lint
// lists (the rest counted, as lint's --max-per-file does): each finding
// costs about 2 KB while a plan runs, and a file of millions of one-byte
// damaged lines (binary data, a runaway writer) would need gigabytes. A
// file with more findings of a rule fix repairs is not planned: its
// findings are marked manual (see overflowing).
const MaxFindings = 50_000

// overflowing is the first rule with a fix (safe or unsafe) whose findings
// in fs passed MaxFindings, "" when none did: planning some of them would
// leave a plan that cannot say what it left.
func overflowing(fs []finding.Finding) string {
	for _, x := range fs {
		if x.More != (finding.Counts{}) {
			if c := rules.FixOf(x.Rule).Class; c == rules.FixSafe || c == rules.FixUnsafe {
				return x.Rule
			}
		}
	}
	return ""
}

// PlanWith is Plan with an engine prepared once (opts.Lint is then unused).
func PlanWith(eng *lint.Engine, found *layout.Result, opts Options) (*Result, error) {
	res0 := eng.Run(found)
	out := &Result{Lint: res0}
	byPath := map[string]*layout.File{}
	for _, f := range found.Files {
		if !f.Context && !f.Stdin && f.Kind.IsTranscript() {
			byPath[f.Path] = f
		}
	}
	groups := map[string][]int{}
	for i, f := range res0.Findings {
		groups[f.Path] = append(groups[f.Path], i)
	}
	paths := make([]string, 0, len(groups))
	for p := range groups {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out.Findings = append([]finding.Finding(nil), res0.Findings...)
	for _, p := range paths {
		lf := byPath[p]
		idx := groups[p]
		fs := make([]finding.Finding, len(idx))
		for k, i := range idx {
			fs[k] = res0.Findings[i]
		}
		if lf == nil {
			for _, i := range idx {
				fi := rules.FixOf(out.Findings[i].Rule)
				out.Findings[i].Fix = &finding.Fix{Safety: string(fi.Class), Message: fi.How}
			}
			continue
		}
		// A file fix does not plan on: each of its findings is a manual
		// step that says why; the other files still are planned.
		var why string
		var data []byte
		if lf.Size > MaxBytes {
			why = fmt.Sprintf("the file is over %d MiB, more than ccvet fix holds in memory", MaxBytes>>20)
		} else if rule := overflowing(fs); rule != "" {
			why = fmt.Sprintf("the file has over %d %s findings, more than ccvet fix plans on in one file; look at it with the lint and cut it by hand", MaxFindings, rule)
		} else if d, err := readFile(lf); err != nil {
			why = "the file cannot be read: " + readonly.Pathless(err) // the lint could not either (unreadable)
		} else {
			data = d
		}
		if why != "" {
			for _, i := range idx {
				out.Findings[i].Fix = &finding.Fix{Safety: string(rules.FixManual), Message: why}
			}
			continue
		}
		ff := &File{File: lf, Orig: data, Findings: fs, New: data}
		ff.Fixes = plan.Plan(data, fs)
		for k, i := range idx {
			fx := ff.Fixes[k]
			out.Findings[i].Fix = &finding.Fix{Safety: string(fx.Safety), Message: fx.Message, Edits: fx.Edits}
		}
		_, ff.Chosen, ff.Dropped = plan.Choose(selected(ff.Fixes, &opts), opts.Unsafe)
		out.Files = append(out.Files, ff)
	}
	final, err := converge(eng, found, out, &opts)
	if err != nil {
		return nil, err
	}
	out.Final = final
	for _, f := range out.Files {
		if f.Err == nil && len(f.Edits) > 0 {
			f.Err = verify(f, out.Final)
			if f.Err == nil && opts.Check != nil {
				f.Err = opts.Check(f)
			}
		}
	}
	return out, nil
}

// selected blanks the edits of fixes whose rule the options leave out.
func selected(fixes []plan.Fix, opts *Options) []plan.Fix {
	out := make([]plan.Fix, len(fixes))
	copy(out, fixes)
	for i := range out {
		if !opts.Wants(out[i].Rule) {
			out[i].Edits = nil
		}
	}
	return out
}

// converge runs the passes: plan on the current bytes of every file, apply,
// re-lint the new bytes, until no file gets a new edit.
func converge(eng *lint.Engine, found *layout.Result, r *Result, opts *Options) ([]finding.Finding, error) {
	byPath := map[string]*File{}
	for _, f := range r.Files {
		byPath[f.File.Path] = f
	}
	cur := r.Lint.Findings
	for pass := 1; ; pass++ {
		groups := map[string][]finding.Finding{}
		for _, f := range cur {
			groups[f.Path] = append(groups[f.Path], f)
		}
		changed := false
		for _, f := range r.Files {
			if f.Err != nil {
				continue
			}
			// The first pass plans on the bytes and the findings PlanWith
			// planned f.Fixes on: its plan, not a second one (a pass over
			// the whole file).
			fixes := f.Fixes
			if pass > 1 {
				fixes = plan.Plan(f.New, groups[f.File.Path])
			}
			es, chosen, _ := plan.Choose(selected(fixes, opts), opts.Unsafe)
			if len(es) == 0 {
				continue
			}
			if pass > 1 {
				for _, i := range chosen {
					st := Step{Pass: pass, Fix: fixes[i]}
					for _, e := range fixes[i].Edits {
						st.Edits = append(st.Edits, plan.Describe(f.New, e))
					}
					f.Later = append(f.Later, st)
				}
			}
			if pass > MaxPasses {
				f.Err = fmt.Errorf("the fixes did not converge in %d passes; nothing written", MaxPasses)
				continue
			}
			next, err := edit.Bytes(f.New, es)
			if err != nil {
				f.Err = err
				continue
			}
			total, err := edit.Compose(f.Orig, f.Edits, es)
			if err != nil {
				f.Err = err
				continue
			}
			f.Edits, f.New, f.Passes = total, next, pass
			changed = true
		}
		if !changed {
			return cur, nil
		}
		overlay := map[string][]byte{}
		for _, f := range r.Files {
			if len(f.Edits) > 0 {
				overlay[f.File.OSPath] = f.New
			}
		}
		cur = eng.WithOverlay(overlay).Run(found).Findings
	}
}

// verify checks a changed file against the lint of its new bytes: the
// targeted findings are gone, nothing new of warning or error, the resumed
// conversation keeps its leaf and reaches a superset, the inverse restores.
func verify(f *File, final []finding.Finding) error {
	// Findings of one rule about one uuid (beforeUUID) as well: a fix must
	// leave fewer of them by as many as it targets, not none (two entries
	// that reuse a third's uuid give two duplicate-uuid findings about it,
	// and deleting the exact copy among them, a safe fix, leaves the other,
	// whose fix is unsafe).
	before, beforeUUID := map[string]int{}, map[string]int{}
	for _, x := range f.Findings {
		if x.Severity >= finding.Warning {
			before[x.Rule]++
		}
		beforeUUID[x.Rule+"\x00"+x.UUID]++
	}
	after := map[string]int{}
	afterUUID := map[string]int{}
	for _, x := range final {
		if x.Path != f.File.Path {
			continue
		}
		if x.Severity >= finding.Warning {
			after[x.Rule]++
		}
		afterUUID[x.Rule+"\x00"+x.UUID]++
	}
	for _, rule := range slices.Sorted(maps.Keys(after)) { // the same message every run
		n := after[rule]
		if rule == "unknown-type" || rule == "unknown-field" {
			continue // format drift, not damage: a line the fix makes readable may show some
		}
		if n > before[rule] {
			return fmt.Errorf("verification failed: the fixed bytes have %d %s finding(s), the original %d", n, rule, before[rule])
		}
	}
	targeted := map[string]int{}
	targetedUUID := map[string]int{}
	for _, i := range f.Chosen {
		if x := f.Findings[f.Fixes[i].Finding]; x.UUID != "" {
			targetedUUID[x.Rule+"\x00"+x.UUID]++
		}
	}
	for _, i := range f.Chosen {
		x := f.Findings[f.Fixes[i].Finding]
		if key := x.Rule + "\x00" + x.UUID; x.UUID != "" && afterUUID[key] > beforeUUID[key]-targetedUUID[key] {
			return fmt.Errorf("verification failed: %s finding on line %d is still there after its fix", x.Rule, x.Line)
		}
		if x.Severity >= finding.Warning { // counted as before and after are
			targeted[x.Rule]++
		}
	}
	for _, rule := range slices.Sorted(maps.Keys(targeted)) {
		n := targeted[rule]
		if after[rule] > before[rule]-n {
			return fmt.Errorf("verification failed: %s findings remain after their fixes", rule)
		}
	}
	if err := sameResume(f.Orig, f.New, f.File); err != nil {
		return err
	}
	// Compared span by span, not built: a third copy of the file.
	if ok, err := edit.Equal(f.New, edit.Invert(f.Orig, f.Edits), f.Orig); err != nil || !ok {
		return fmt.Errorf("verification failed: the inverse edits do not restore the original bytes")
	}
	return nil
}

// countBudget bounds the bytes of the files Count holds at once; a larger
// file is held alone.
const countBudget = 64 << 20

// Count plans, without verifying, the fixes for findings of a lint run and
// returns how many are safe and how many more are unsafe; for the last line
// of a lint report. It plans up to jobs files at once (0: one per CPU).
func Count(found *layout.Result, fs []finding.Finding, jobs int) (safe, unsafe int) {
	byPath := map[string]*layout.File{}
	for _, f := range found.Files {
		if !f.Context && !f.Stdin && f.Kind.IsTranscript() {
			byPath[f.Path] = f
		}
	}
	groups := map[string][]finding.Finding{}
	for _, f := range fs {
		if c := rules.FixOf(f.Rule).Class; c == rules.FixSafe || c == rules.FixUnsafe {
			if byPath[f.Path] != nil {
				groups[f.Path] = nil
			}
		}
	}
	for _, f := range fs {
		if _, ok := groups[f.Path]; ok {
			groups[f.Path] = append(groups[f.Path], f)
		}
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var (
		mu       sync.Mutex
		room     = sync.NewCond(&mu)
		inFlight int64
		wg       sync.WaitGroup
		work     = make(chan string)
	)
	for range min(jobs, len(groups)) {
		wg.Go(func() {
			var buf []byte // this worker's file buffer, reused from file to file
			for p := range work {
				n := byPath[p].Size
				mu.Lock()
				for inFlight > 0 && inFlight+n > countBudget {
					room.Wait()
				}
				inFlight += n
				mu.Unlock()
				s, u := countFile(byPath[p], groups[p], &buf)
				mu.Lock()
				inFlight -= n
				safe += s
				unsafe += u
				room.Broadcast()
				mu.Unlock()
			}
		})
	}
	for p := range groups {
		if byPath[p].Size <= MaxBytes {
			work <- p
		}
	}
	close(work)
	wg.Wait()
	return safe, unsafe
}

// countFile plans the fixes for the findings g of one file and counts the
// safe and unsafe ones. It reads the file into *buf, which it keeps for
// the next file unless large: a fresh buffer per file cost as much in page
// faults as the read itself.
func countFile(lf *layout.File, g []finding.Finding, buf *[]byte) (safe, unsafe int) {
	data, err := readFileInto(lf, *buf)
	if cap(data) <= keptBuffer {
		*buf = data[:0]
	}
	if err != nil {
		return 0, 0
	}
	for _, fx := range plan.Plan(data, g) {
		if fx.Fixable() {
			if fx.Safety == rules.FixSafe {
				safe++
			} else {
				unsafe++
			}
		}
	}
	return safe, unsafe
}

// keptBuffer is the largest buffer Count keeps from one file for the next.
const keptBuffer = 8 << 20

func readFile(lf *layout.File) ([]byte, error) { return readFileInto(lf, nil) }

// readFileInto reads lf into buf (from its start; a new buffer when buf is
// too small).
func readFileInto(lf *layout.File, buf []byte) ([]byte, error) {
	f, st, err := readonly.Open(lf.OSPath, lf.Link)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	// Sized to the file, not grown by io.ReadAll's doubling (as
	// os.ReadFile); a file that grew meanwhile is read to its end too.
	b := buf[:0]
	if want := int(min(st.Size(), MaxBytes)) + 512; cap(b) < want {
		b = make([]byte, 0, want)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}

// Change is what the store writes for a changed file: its planned bytes,
// its edits labelled with the rule and class of the fix each belongs to,
// and the fixes applied, for the manifest.
func (f *File) Change() store.Change {
	label := func(e edit.Edit) (string, string) {
		for _, fx := range f.Fixes {
			for _, x := range fx.Edits {
				if x.Offset >= e.Offset && x.End() <= e.End() {
					return fx.Rule, string(fx.Safety)
				}
			}
		}
		return "", ""
	}
	var notes []store.FixNote
	for _, i := range f.Chosen {
		fx := f.Fixes[i]
		notes = append(notes, store.FixNote{Pass: 1, Line: fx.Line, Rule: fx.Rule, Safety: string(fx.Safety), Message: fx.Message})
	}
	for _, st := range f.Later {
		notes = append(notes, store.FixNote{Pass: st.Pass, Line: st.Fix.Line, Rule: st.Fix.Rule, Safety: string(st.Fix.Safety),
			Message: st.Fix.Message})
	}
	return store.Change{Path: f.File.OSPath, Orig: f.Orig, New: f.New,
		Edits: store.Records(f.Orig, edit.Coalesce(f.Edits), label), Fixes: notes}
}
