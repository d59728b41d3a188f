// Package lint runs the rules over discovered files: lines, then files, then projects, then the store.
package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/digest"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/memlimit"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/schema"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/workers"
)

// ThinFrom is the size of a project folder's transcripts from which its
// files keep only digests between their own checks and the project's (see
// Engine.closeFile). Below it every record stays to the project's close:
// at most a few MB of records per folder in flight, and a damaged file is
// never read a second time.
const ThinFrom = 16 << 20

// MaxDocBytes bounds whole-document files (todos) read into memory.
const MaxDocBytes = 64 << 20

// Options say which rules run and how findings are graded.
type Options struct {
	Jobs     int                         // files checked at once; <= 0 means the number of CPUs
	Enabled  map[string]bool             // rule id -> on; rules not named keep their default
	Severity map[string]finding.Severity // rule id -> severity override
	Strict   bool                        // unknown-field and unknown-type on, as errors; schema problems errors too
	// ReaderVersion judges what a resume loses for this Claude Code version only.
	ReaderVersion string
	Stdin         io.Reader // read for the "-" argument
	MaxLine       int       // longest line held in memory (0: jsonl.DefaultMaxLine)
	// OnLine, if set, sees every line of a JSONL file after the line checks
	// (ccvet stats). It is called from several goroutines at once.
	OnLine func(l *model.Line)
	// Progress, if set, is called after each file is read with the files
	// and bytes read so far (calls are serialized; see progress.go).
	Progress func(files int, bytes int64)
	// Reference turns the fast path off: every line is decoded with
	// encoding/json and validated with jsonschema/v5, as before jsontree.
	// Tests compare the two paths; the findings must be identical.
	Reference bool
	// Overlay, if set, gives the bytes to check for some files instead of
	// what is on disk (by OSPath): ccvet fix verifies planned bytes with it.
	Overlay map[string][]byte
	// MaxPerFile, if > 0, is how many findings of one rule in one file are
	// listed: the rest are counted into one finding that says how many and
	// of what severity (see collector.emit). Findings are most of what a
	// run of a damaged store holds, about 140 bytes each and more: a 1 MB
	// file of blank lines is a million of them. ccvet lint sets it (the
	// flag --max-per-file), and fix its own bound (fix.MaxFindings).
	MaxPerFile int
	// MoreHint ends the message of the finding that counts those past
	// MaxPerFile: how to list them all ("--max-per-file 0 lists them all"
	// when empty, lint's flag).
	MoreHint string
}

// Result is what a run found.
type Result struct {
	Findings []finding.Finding // sorted
	Unlisted finding.Counts    // past Options.MaxPerFile: counted, not in Findings
	Files    int               // files checked
	Entries  int               // JSON entries read
	Bytes    int64             // bytes read
	Skipped  int               // files found but not checked

	src    []*model.File // for Lines (lines.go)
	spools []*spool
}

// Close drops the copy of standard input the run kept, if any.
func (r *Result) Close() error {
	for _, sp := range r.spools {
		sp.Close()
	}
	r.spools = nil
	return nil
}

// Engine holds the compiled rules and schemas for one run.
type Engine struct {
	opts  Options
	env   *model.Env
	rules []*rules.Rule
	on    map[string]bool
	sev   map[string]finding.Severity
	long  jsonl.LongLines // lines longer than a reader's buffer are held one at a time

	spools []*spool // copies of standard input, closed with the Result

	whole bool // tests: every file keeps its records to its project's close (the reference for Rule.Keeps)
	// thinFrom is the size of a project folder's transcripts from which
	// its files go thin at close (see closeFile); a smaller folder keeps
	// every record to its close, so its damage is never read twice.
	thinFrom int64

	lineRules []*rules.Rule // the rules of e.rules with a Line check
	// earlyRules are those with an Early check too (checkLinesPiped).
	earlyRules []*rules.Rule
}

// WithOverlay returns an engine sharing e's compiled rules and schemas that
// checks the given bytes instead of those files on disk (see Options.Overlay).
func (e *Engine) WithOverlay(overlay map[string][]byte) *Engine {
	c := &Engine{opts: e.opts, env: e.env, rules: e.rules, lineRules: e.lineRules, earlyRules: e.earlyRules, on: e.on, sev: e.sev, thinFrom: e.thinFrom}
	c.opts.Overlay = overlay
	return c
}

// New prepares an engine; the schemas are compiled on first use, once.
func New(opts Options) (*Engine, error) {
	v, err := schema.New()
	if err != nil {
		return nil, fmt.Errorf("compiling embedded schemas: %w", err)
	}
	e := &Engine{opts: opts, on: map[string]bool{}, sev: map[string]finding.Severity{}, thinFrom: ThinFrom}
	for _, r := range rules.All() {
		on := r.Enabled
		if opts.Strict && r.Strict {
			on = true
			e.sev[r.ID] = finding.Error
		}
		if v, ok := opts.Enabled[r.ID]; ok {
			on = v
		}
		if s, ok := opts.Severity[r.ID]; ok {
			e.sev[r.ID] = s
			if s == finding.Off {
				on = false
			}
		}
		e.on[r.ID] = on
		if on {
			e.rules = append(e.rules, r)
			if r.Line != nil {
				e.lineRules = append(e.lineRules, r)
				if r.Early != nil {
					e.earlyRules = append(e.earlyRules, r)
				}
			}
		}
	}
	e.env = &model.Env{Schema: v, Strict: opts.Strict, ReaderVersion: opts.ReaderVersion, Enabled: func(id string) bool { return e.on[id] },
		Jobs: opts.Jobs}
	return e, nil
}

// commonTypes are the entry types most lines have (in the real corpus:
// assistant, user, progress, file-history-snapshot, system, then the
// rest), whose schema checks Warm compiles first.
var commonTypes = []string{"assistant", "user", "progress", "file-history-snapshot", "system", "summary",
	"queue-operation", "attachment", "last-prompt", "permission-mode"}

// Warm makes ahead of the run what the first lines of most runs wait for:
// the secret scanner's tables (when the rule is on) and the schema checks
// of the common entry types. Call it on a goroutine of its own while the
// files are being found (a run that starts first waits for what it needs,
// as it would have made it).
func (e *Engine) Warm() {
	if e.on[rules.Secret.ID] {
		secret.Default()
	}
	e.env.Schema.Warm(commonTypes...)
}

// collector gathers findings of one unit of work, applying the run's rule
// selection and severity overrides.
type collector struct {
	e   *Engine
	out []finding.Finding

	// While the file rules of one file run at once (see checkAndClose),
	// what they report is kept by rule, in the order each reported it, and
	// added to out in rule order when they are all done: out does not
	// depend on which rule finished first.
	mu     sync.Mutex
	byRule map[string][]finding.Finding

	listed map[fileRule]int       // findings kept, by file and rule (with MaxPerFile)
	over   map[fileRule]*overflow // those past MaxPerFile
}

type fileRule struct{ path, rule string }

// overflow counts the findings of a rule in a file past MaxPerFile.
type overflow struct {
	first finding.Finding // the first not listed
	count finding.Counts
}

func (c *collector) emit(f finding.Finding) {
	if !c.e.on[f.Rule] {
		return
	}
	if s, ok := c.e.sev[f.Rule]; ok {
		f.Severity = s
	}
	if f.Severity == finding.Off {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if max := c.e.opts.MaxPerFile; max > 0 {
		// A rule reports in one file from one goroutine at a time, in
		// the order of its lines: which findings are listed does not
		// depend on the run's parallelism.
		k := fileRule{f.Path, f.Rule}
		if c.listed[k] >= max {
			if c.over == nil {
				c.over = map[fileRule]*overflow{}
			}
			o := c.over[k]
			if o == nil {
				o = &overflow{first: f}
				c.over[k] = o
			}
			o.count.Add(f.Severity, 1)
			return
		}
		if c.listed == nil {
			c.listed = map[fileRule]int{}
		}
		c.listed[k]++
	}
	if c.byRule != nil {
		c.byRule[f.Rule] = append(c.byRule[f.Rule], f)
	} else {
		c.out = append(c.out, f)
	}
}

// overflowed adds to out one finding for each rule and file with findings
// past MaxPerFile: at the first of them, of the highest severity among
// them, saying how many there are.
func (c *collector) overflowed() {
	keys := make([]fileRule, 0, len(c.over))
	for k := range c.over {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b fileRule) int {
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		return strings.Compare(a.rule, b.rule)
	})
	for _, k := range keys {
		o := c.over[k]
		f := o.first
		var parts, bare []string
		f.Severity = finding.Note
		for _, sev := range []finding.Severity{finding.Error, finding.Warning, finding.Note} {
			if n := o.count.Of(sev); n > 0 {
				parts = append(parts, counted(n, sev.String()))
				bare = append(bare, fmt.Sprintf("%d %s", n, sev))
				f.Severity = max(f.Severity, sev)
			}
		}
		total := o.count.Total()
		hint := c.e.opts.MoreHint
		if hint == "" {
			hint = "--max-per-file 0 lists them all"
		}
		tail := fmt.Sprintf("ccvet lists %d of a rule in a file, %s); the first not listed: %s",
			c.e.opts.MaxPerFile, hint, f.Message)
		noun, are := "findings", "are"
		if total == 1 {
			noun, are = "finding", "is"
		}
		f.Message = fmt.Sprintf("%d more %s %s in this file %s not listed (%s; %s", total, k.rule, noun, are,
			strings.Join(parts, ", "), tail)
		// Not the first's Key: the finding stands for all of them. Its
		// fingerprint is that of the words it had before they agreed
		// with their counts ("1 more schema findings", "2 warning"),
		// counts removed, so that a baseline keeps matching it whatever
		// the counts and whenever it was written.
		f.Key = finding.WithoutNumbers(fmt.Sprintf("%d more %s findings in this file are not listed (%s; %s", total, k.rule,
			strings.Join(bare, ", "), tail))
		f.Related, f.Fix = nil, nil
		// Counted in the summary beside the one finding that stands for
		// them (Unlisted), as long as it is reported.
		f.More = o.count
		f.More.Add(f.Severity, -1)
		c.out = append(c.out, f)
	}
	c.over = nil
}

// counted is n and noun, with an "s" unless n is 1.
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Unlisted sums what the findings of fs stand for past --max-per-file
// (finding.Finding.More): a run's Unlisted, once filters have dropped
// findings, is Unlisted of what is left.
func Unlisted(fs []finding.Finding) finding.Counts {
	var c finding.Counts
	for i := range fs {
		c.Plus(fs[i].More)
	}
	return c
}

// split starts keeping findings by rule; join adds them to out, rule by
// rule in the given order, and ends it.
func (c *collector) split() { c.byRule = map[string][]finding.Finding{} }

func (c *collector) join(order []*rules.Rule) {
	for _, r := range order {
		if len(c.out) == 0 {
			c.out = c.byRule[r.ID] // the first: no copy
		} else {
			c.out = append(c.out, c.byRule[r.ID]...)
		}
		delete(c.byRule, r.ID)
	}
	if len(c.byRule) > 0 { // reported for a rule that is not in the list: by id
		ids := make([]string, 0, len(c.byRule))
		for id := range c.byRule {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			c.out = append(c.out, c.byRule[id]...)
		}
	}
	c.byRule = nil
}

// Run checks everything Discover found.
func (e *Engine) Run(found *layout.Result) *Result {
	res := &Result{Skipped: found.Skipped}
	var all []finding.Finding

	problems := &collector{e: e}
	for _, p := range found.Problems {
		problems.emit(finding.Finding{Rule: rules.Unreadable.ID, Severity: rules.Unreadable.Severity,
			Path: p.Path, Message: "cannot read: " + p.Err.Error()})
	}
	for _, p := range found.Links {
		problems.emit(finding.Finding{Rule: rules.UnfollowedLink.ID, Severity: rules.UnfollowedLink.Severity,
			Path: p.Path, Message: p.Err.Error()})
	}
	problems.overflowed()
	all = append(all, problems.out...)

	files := make([]*model.File, len(found.Files))
	cols := make([]*collector, len(found.Files))
	for i, lf := range found.Files {
		c := &collector{e: e}
		cols[i] = c
		files[i] = model.NewFile(lf, e.env, c.emit)
	}
	res.src = files
	defer func() { res.spools, e.spools = e.spools, nil }()

	// Projects: transcripts grouped by their folder. A project's rules run
	// as soon as its last file is read, and its files then drop their
	// records, so memory follows the projects in flight, not the whole
	// store. Files are handed out project by project to keep few
	// in flight.
	byDir := map[string][]int{}
	for i, f := range files {
		if f.Kind.IsTranscript() {
			byDir[f.Project] = append(byDir[f.Project], i)
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	projects := make([]*model.Project, len(dirs))
	pcols := make([]*collector, len(dirs))
	projectOf := make([]int, len(files))
	for i := range projectOf {
		projectOf[i] = -1
	}
	remaining := make([]atomic.Int32, len(dirs))
	small := make([]bool, len(dirs)) // whose files keep their records (see Engine.thinFrom)
	var groups []handout
	for pi, d := range dirs {
		idx := byDir[d]
		fs := make([]*model.File, len(idx))
		for k, i := range idx {
			fs[k] = files[i]
			projectOf[i] = pi
		}
		remaining[pi].Store(int32(len(idx)))
		var size int64
		for _, i := range idx {
			size += files[i].Size
		}
		small[pi] = size < e.thinFrom
		pcols[pi] = &collector{e: e}
		projects[pi] = model.NewProject(d, fs[0].ProjectName, fs[0].InLayout, fs, e.env, pcols[pi].emit)
		groups = append(groups, handout{idx, size})
	}
	for i, f := range files {
		if projectOf[i] < 0 {
			groups = append(groups, handout{[]int{i}, f.Size})
		}
	}
	order := handoutOrder(groups, files)
	sc := &collector{e: e}
	store := model.NewStore(found.Roots, projects, files, e.env, sc.emit)
	for _, f := range files {
		f.Store = store
	}
	var prepares []*rules.Rule
	for _, r := range e.rules {
		if r.Prepare != nil {
			prepares = append(prepares, r)
		}
	}
	progress := e.progress()
	e.parallel(len(order)+len(prepares), func(k int) {
		if k >= len(order) { // handed out after every file
			r := prepares[k-len(order)]
			r.Prepare(r, store)
			return
		}
		i := order[k]
		f := files[i]
		var p *model.Project
		if pi := projectOf[i]; pi >= 0 {
			p = projects[pi]
		}
		// A file of a small project keeps its records to the project's
		// close: when its file rules ran resumes, it keeps its graph and
		// them too, for the project rules that ask for them again.
		e.checkAndClose(f, cols[i], p, p != nil && small[projectOf[i]])
		progress(f)
		if pi := projectOf[i]; pi >= 0 && remaining[pi].Add(-1) == 0 {
			e.checkProject(projects[pi])
		}
		memlimit.Check()
	})
	for _, f := range files {
		if f.Context {
			continue // read for the cross-file checks of another file; not reported on
		}
		res.Files++
		res.Entries += f.Entries
		res.Bytes += f.Bytes
	}
	for _, c := range pcols {
		c.overflowed()
		all = append(all, c.out...)
		c.out = nil
	}

	for _, r := range e.rules {
		if r.Store != nil {
			r.Store(r, store)
		}
	}
	sc.overflowed()
	all = append(all, sc.out...)
	// File collectors are gathered last: project and store checks may report
	// on a file through it (a file belongs to one project, so no two
	// goroutines ever write one collector). Into a list of the right size,
	// each collector's let go once copied: findings are most of what a run
	// of many holds (a line of a blank file is one).
	n := len(all)
	for _, c := range cols {
		c.overflowed()
		n += len(c.out)
	}
	all = slices.Grow(all, n-len(all))
	for _, c := range cols {
		all = append(all, c.out...)
		c.out = nil
	}

	ctx := contextPaths(files)
	all = withoutContext(all, ctx)
	res.Unlisted = Unlisted(all)
	finding.Sort(all)
	res.Findings = all
	return res
}

// handout is a project folder's files (or a file of none) and their size.
type handout struct {
	files []int
	size  int64
}

// handoutOrder is the order in which Run hands files out: project by
// project, to keep few in flight, the largest project first and in each
// the largest file first, so that the last files handed out are small
// and no core waits long at the end of a run for the other to finish a
// large one. Ties keep the order of files.
func handoutOrder(groups []handout, files []*model.File) []int {
	sort.SliceStable(groups, func(a, b int) bool { return groups[a].size > groups[b].size })
	order := make([]int, 0, len(files))
	for _, g := range groups {
		k := len(order)
		order = append(order, g.files...)
		part := order[k:]
		sort.SliceStable(part, func(a, b int) bool { return files[part[a]].Size > files[part[b]].Size })
	}
	return order
}

// checkAndClose checks f (checkFile), whose findings go to c, and closes
// it in its project p, if any (closeFile). The file rules of a file read
// by checkLinesPiped (a large one: most of the run's time may be this one
// file) run at once on the run's workers, beside its digest and the Keeps
// checks of its close.
func (e *Engine) checkAndClose(f *model.File, c *collector, p *model.Project, small bool) {
	if !e.readFile(f) || f.Context {
		if !f.Context {
			e.fileRules(f, small)
		}
		if p != nil {
			e.closeFile(p, f, small)
		}
		return
	}
	var tasks []func()
	keep := false
	// The digest of a file of many entries is built once its rules are
	// done and the graph only they read is let go: the two are not held
	// at once (about 35 bytes an entry at the peak of a long transcript).
	later := p != nil && len(f.Records) >= digestAfterRecords
	if p != nil && !later {
		tasks = append(tasks, func() { keep = e.digestFile(p, f, small) })
	}
	for _, r := range e.rules {
		if r.File != nil {
			tasks = append(tasks, func() { r.File(r, f) })
		}
	}
	c.split()
	e.parallel(len(tasks), func(i int) { tasks[i]() })
	c.join(e.rules)
	e.afterFileRules(f, small)
	if later {
		keep = e.digestFile(p, f, small)
	}
	if p != nil {
		e.thinFile(f, keep)
	}
}

// digestAfterRecords is the number of records from which a file's digest
// is built after its file rules, not beside them (checkAndClose).
var digestAfterRecords = 100_000

// closeFile digests a transcript whose file rules are done, and lets it
// drop the records no project rule needs (see rules.Rule.Keeps): from then
// until its project's rules have run it holds its digest, its store
// records and, only when a project rule may report on it, all its records.
// A file of a small project (see ThinFrom) keeps all its records.
func (e *Engine) closeFile(p *model.Project, f *model.File, small bool) {
	e.thinFile(f, e.digestFile(p, f, small))
}

// digestFile is the first part of closeFile: it gives f its digest and
// reports whether f keeps every record (a project rule may report on it,
// or its project is small). It reads f's records and digest only (and
// adds to f.Asks): it may run while f's file rules do.
func (e *Engine) digestFile(p *model.Project, f *model.File, small bool) (keep bool) {
	f.Digest = digest.BuildOn(f.Records, rules.DigestLines(f), e.jobs())
	keep = e.whole || small
	var keeps []*rules.Rule
	for _, r := range e.rules {
		if keep {
			break // a file kept whole has no asks (thinFile): none to gather
		}
		if r.Project != nil {
			keep = r.Keeps == nil
			keeps = append(keeps, r)
		}
	}
	if !keep && len(keeps) > 0 {
		// Each Keeps reads the whole file: on a long transcript they take
		// as long as its digest, on as many workers as the run has. One
		// saying yes settles it; the asks the others add are then dropped.
		var yes atomic.Bool
		e.parallel(len(keeps), func(i int) {
			if r := keeps[i]; !yes.Load() && r.Keeps(r, p, f) {
				yes.Store(true)
			}
		})
		keep = yes.Load()
	}
	f.Digest.Compact()
	return keep
}

// thinFile is the rest of closeFile, once f's file rules are done.
func (e *Engine) thinFile(f *model.File, keep bool) {
	if keep {
		f.Asks = nil
		return
	}
	f.KeepStoreRecords()
	f.Thin = true
}

// checkProject runs the project rules over one project folder, then lets
// its files drop their digests and records: the store rules read only the
// summaries the file and project rules left.
func (e *Engine) checkProject(p *model.Project) {
	for _, f := range p.Files {
		if f.Digest == nil { // not closed by Run (benchmarks)
			f.Digest = digest.Build(f.Records, rules.DigestLines(f))
			f.Digest.Compact()
		}
	}
	for _, f := range p.Files {
		// A thin file naming what no file of the project holds after all
		// (damage, or a resume whose first file is gone) is read again:
		// the project rules report on it from its records.
		if f.Thin && len(f.Asks) > 0 && !rules.Answered(p, f) {
			// One that cannot be read again keeps its store records and
			// is not reported on.
			if recs := e.records(f); recs != nil {
				f.Records, f.Thin = recs, false
			}
		}
	}
	for _, r := range e.rules {
		if r.Project != nil {
			r.Project(r, p)
		}
	}
	p.Forget()
	for _, f := range p.Files {
		f.DropGraph()
		f.DropLine()
		f.DropRecords()
		f.Thin = true
		f.Digest, f.Asks = nil, nil
	}
}

// parallel runs fn(0) to fn(n-1), each once, on up to the configured
// number of workers (this goroutine and others), handing the indexes out
// in order, and returns when all are done.
func (e *Engine) parallel(n int, fn func(i int)) { workers.Each(n, e.jobs(), fn) }

func (e *Engine) unreadable(f *model.File, line int, err error) {
	f.Emit(rules.Unreadable, finding.Finding{Line: line, Message: "cannot read: " + readonly.Pathless(err)})
}

// afterOpen, when set (tests), is called with each file checkLines opens.
var afterOpen func(path string)

// open opens what f names: standard input, or a file read up to its size
// at open. grew, for a file, reports whether it has grown since.
func (e *Engine) open(f *model.File) (rc io.ReadCloser, grew func() bool, err error) {
	if f.Stdin {
		in := e.opts.Stdin
		if in == nil {
			in = os.Stdin
		}
		// Standard input is read as a stream; a copy goes to an unnamed
		// spool file (memory only where none can be made), which the
		// positions of findings and the snippets read again.
		sp := newSpool()
		e.spools = append(e.spools, sp)
		f.Copy = sp
		return io.NopCloser(io.TeeReader(in, sp)), func() bool { return false }, nil
	}
	if data, ok := e.opts.Overlay[f.OSPath]; ok {
		// What reads f again (LineHashes) reads these bytes, not the file's.
		f.Source = func() (*io.SectionReader, func(), error) { return e.reopen(f) }
		return io.NopCloser(bytes.NewReader(data)), func() bool { return false }, nil
	}
	// Read up to the size at open: bytes appended later are left to the
	// next run, so a file that a writer keeps growing cannot keep ccvet
	// reading.
	sf, err := readonly.OpenHandle(f.OSPath, f.Link)
	if err != nil {
		return nil, nil, err
	}
	if afterOpen != nil {
		afterOpen(f.OSPath)
	}
	return sf, sf.Grew, nil
}

// checkFile reads f and runs the file rules; keepGraph: a graph holding
// resumes is kept (see model.File.GraphMemoizes), else it is dropped.
func (e *Engine) checkFile(f *model.File, keepGraph bool) {
	e.readFile(f)
	if f.Context {
		return // read for its records only (see checkLines)
	}
	e.fileRules(f, keepGraph)
}

// readFile reads f's lines or document; it reports whether f was read by
// checkLinesPiped.
func (e *Engine) readFile(f *model.File) (piped bool) {
	if f.Kind == layout.Todos {
		e.checkDoc(f)
		return false
	}
	return e.checkLines(f)
}

// fileRules runs the file rules over f, one after the other, then
// afterFileRules.
func (e *Engine) fileRules(f *model.File, keepGraph bool) {
	for _, r := range e.rules {
		if r.File != nil {
			r.File(r, f)
		}
	}
	e.afterFileRules(f, keepGraph)
}

// afterFileRules lets go of what only f's file rules read.
func (e *Engine) afterFileRules(f *model.File, keepGraph bool) {
	if !keepGraph || !f.GraphMemoizes() {
		f.DropGraph()
	}
	f.DropLine()
	if f.Kind == layout.Todos {
		// Only the file rules read a whole document: it is not kept for the
		// rest of the run (a store of large todos files stays small).
		f.Doc, f.DocValue = nil, nil
	}
}

// checkLines reads the lines of f; it reports whether checkLinesPiped did.
func (e *Engine) checkLines(f *model.File) (piped bool) {
	rc, grew, err := e.open(f)
	if err != nil {
		e.unreadable(f, 0, err)
		return false
	}
	defer rc.Close()
	rd := jsonl.NewReader(rc)
	rd.Long = &e.long
	rd.Frame = true
	defer rd.Release()
	if e.opts.MaxLine > 0 {
		rd.MaxLine = e.opts.MaxLine
	}
	sniffed := f.InLayout || f.Kind != layout.Transcript
	if sniffed && f.Size >= pipeMin && e.jobs() > 1 && !f.Stdin && !e.opts.Reference {
		e.checkLinesPiped(f, rd, grew)
		return true
	}
	tree := trees.Get().(*jsontree.Tree)
	defer func() {
		tree.Raw = nil
		trees.Put(tree)
	}()
	l := &model.Line{}
	for {
		// Let go of the last line first: the reader may collect a huge one.
		l.Raw, tree.Raw = nil, nil
		jl, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			f.ReadError = err
			e.unreadable(f, f.Lines+1, err)
			break
		}
		if !jl.Newline && grew() {
			// The size snapshot cut a line that a writer is still
			// appending: it is left, whole, to the next run.
			break
		}
		*l = model.Line{File: f, Num: jl.Num, Offset: jl.Offset, Raw: jl.Bytes, Length: jl.Length,
			Newline: jl.Newline, Cut: jl.Cut, Blank: jl.Blank, NUL: jl.NUL, BadUTF8: jl.BadUTF8, BOM: jl.BOM}
		switch {
		case !jl.Parse:
		case e.opts.Reference:
			decodeReference(l, &jl)
		default:
			decode(l, &jl, tree)
		}
		obj := l.IsObject()
		if !sniffed && obj {
			// A loose .jsonl: history.jsonl lines have "display" and no "type".
			sniffed = true
			if !l.Root.Get("type").Exists() && l.Root.Get("display").Exists() {
				f.Kind = layout.History
			}
		}
		var rec *entry.Record
		if obj && f.Kind.IsTranscript() {
			rec = entry.Extract(l.Root, l.Num, l.Offset)
		}
		e.lineDone(f, l, rec)
	}
	return false
}

// lineDone is the in-order part of a line's check: the file's counts, the
// line rules and OnLine, and its record (rec, nil for a line that is not
// a transcript entry).
func (e *Engine) lineDone(f *model.File, l *model.Line, rec *entry.Record) {
	f.Lines++
	f.AddMark(l.Num, l.Offset)
	f.Bytes = l.Offset + l.Length
	if l.Newline {
		f.Bytes++
	}
	if l.IsObject() {
		f.Entries++
	}
	// A context file is read only for the records that the project
	// checks of the files asked for look up: nothing is reported on it,
	// so its lines see no rule and no OnLine hook (ccvet stats).
	if !f.Context {
		for _, r := range e.lineRules {
			r.Line(r, l)
		}
		if e.opts.OnLine != nil {
			e.opts.OnLine(l)
		}
	}
	if rec != nil {
		f.Records = append(f.Records, rec)
	}
}

// jobs is the number of workers Run uses.
func (e *Engine) jobs() int {
	if e.opts.Jobs <= 0 {
		return runtime.NumCPU()
	}
	return e.opts.Jobs
}

// pipeMin is the size from which a file's lines are read and framed by a
// goroutine, parsed, schema-checked and made records by others, ahead of the
// one that runs the line rules over them in order: one long transcript
// keeps every core busy.
var pipeMin int64 = 32 << 20

// A lineBatch is a run of lines the reading goroutine has framed, their
// bytes copied into arena. A line longer than bigLine comes alone: copied
// into a slice of its own while the copies in flight stay within
// bigCopied (copied holds its size), else not copied, and the reader waits
// for ack before it reads on. A decoding goroutine then gives the lines
// their trees, schema verdicts and records, and closes decoded.
type lineBatch struct {
	arena   []byte
	lines   []model.Line
	framed  []jsonl.Line
	trees   []*jsontree.Tree
	recs    []*entry.Record
	err     error         // the read error after the lines, if any
	ack     chan struct{} // closed when a line pointing into the reader's buffer is done
	copied  int64         // the size of a long line copied out of the reader's buffer
	decoded chan struct{} // closed when lines, trees and recs are made
}

// The size of a batch, and of a line that comes alone (bigLine <=
// batchBytes); variables for the tests.
var (
	batchBytes = 1 << 20
	batchLines = 256
	bigLine    = 256 << 10
	// bigCopied bounds the bytes of the long lines copied and in flight:
	// one past it is checked where the reader holds it, the reader
	// waiting meanwhile. A fifth of the bytes of real long sessions are in
	// lines over bigLine (tool results, pasted files): waiting for each
	// left the other core idle while one goroutine parsed and checked it.
	bigCopied int64 = 8 << 20
)

// Batches in flight in checkLinesPiped, and goroutines decoding them.
const (
	pipeBatches  = 4
	pipeDecoders = 2
)

// treeNodesKept bounds the nodes a batch's tree keeps for its next line:
// a tree that parsed a line of many values gives them back.
const treeNodesKept = 1 << 14

// checkLinesPiped is checkLines for a large file whose kind is known: one
// goroutine reads and frames the lines into batches, pipeDecoders others
// parse each batch's lines, check them against the schemas and make their
// records, and this one runs the line rules over them in file order. At
// most pipeBatches batches (1 MiB of lines each, their trees and records)
// are in flight, plus one long line as the reader holds it anyway.
func (e *Engine) checkLinesPiped(f *model.File, rd *jsonl.Reader, grew func() bool) {
	free := make(chan *lineBatch, pipeBatches)
	for range cap(free) {
		free <- &lineBatch{arena: make([]byte, 0, batchBytes)}
	}
	full := make(chan *lineBatch, cap(free)) // in file order
	work := make(chan *lineBatch, cap(free))
	var copied atomic.Int64 // the bytes of long lines copied and in flight
	transcript := f.Kind.IsTranscript()
	early := e.earlyRules
	if f.Context {
		early = nil // no rule sees a context file's lines (lineDone)
	}
	for range min(pipeDecoders, e.jobs()) {
		go func() {
			scratch := make([]any, len(early)) // the Early checks' own, for this goroutine
			for b := range work {
				for k := range b.lines {
					l, jl := &b.lines[k], &b.framed[k]
					if k == len(b.trees) {
						b.trees = append(b.trees, new(jsontree.Tree))
					}
					if jl.Parse {
						decode(l, jl, b.trees[k])
					}
					var rec *entry.Record
					if l.IsObject() {
						l.SchemaVerdict() // kept with the line for the schema rule
						if transcript {
							rec = entry.Extract(l.Root, l.Num, l.Offset)
						}
					}
					for j, r := range early {
						r.Early(r, l, &scratch[j])
					}
					b.recs = append(b.recs, rec)
				}
				close(b.decoded)
				// The goroutine running the line rules may wait for this
				// batch: it gets this P now, not when a time slice ends.
				runtime.Gosched()
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(full)
		b := <-free
		send := func() {
			ack := b.ack
			b.decoded = make(chan struct{})
			full <- b
			work <- b
			if ack != nil {
				<-ack // the line points into the reader's buffer
			}
			b = <-free
		}
		for {
			jl, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.err = err
				break
			}
			if !jl.Newline && grew() {
				break // left, whole, to the next run (see checkLines)
			}
			raw := jl.Bytes
			big := len(raw) > bigLine
			if len(b.lines) > 0 && (big || len(b.arena)+len(raw) > cap(b.arena)) {
				send()
			}
			switch size := int64(len(raw)); {
			case !big:
				at := len(b.arena)
				b.arena = append(b.arena, raw...) // never grows: see the check above
				raw = b.arena[at:len(b.arena):len(b.arena)]
			case copied.Load()+size <= bigCopied:
				copied.Add(size)
				raw = append([]byte(nil), raw...)
				b.copied, big = size, false // the reader reads on
			}
			jl.Bytes = raw
			b.framed = append(b.framed, jl)
			b.lines = append(b.lines, model.Line{File: f, Num: jl.Num, Offset: jl.Offset, Raw: raw, Length: jl.Length,
				Newline: jl.Newline, Cut: jl.Cut, Blank: jl.Blank, NUL: jl.NUL, BadUTF8: jl.BadUTF8, BOM: jl.BOM})
			if big {
				b.ack = make(chan struct{})
				send()
			} else if b.copied > 0 || len(b.lines) == batchLines {
				send()
			}
		}
		if len(b.lines) > 0 || b.err != nil {
			b.decoded = make(chan struct{})
			full <- b
			work <- b
		}
	}()
	for b := range full {
		<-b.decoded
		for k := range b.lines {
			e.lineDone(f, &b.lines[k], b.recs[k])
		}
		if b.err != nil {
			f.ReadError = b.err
			e.unreadable(f, f.Lines+1, b.err)
		}
		if b.ack != nil || b.copied > 0 {
			// A line read alone, out of the reader's buffer (which may
			// hold a line of hundreds of MiB) or copied: let go of it. Other
			// lines point into the arena, and the next batch writes
			// each line whole (what they still hold meanwhile, a value
			// decoded for a schema finding, is bounded by the batches
			// in flight): clearing them would only move their cache
			// lines to this core and back to the reader's.
			clear(b.lines)
			clear(b.framed)
		}
		for k, t := range b.trees {
			t.Raw = nil
			if cap(t.Nodes) > treeNodesKept {
				b.trees[k] = new(jsontree.Tree)
				if k < len(b.lines) {
					b.lines[k] = model.Line{} // its Tree is the one let go
				}
			}
		}
		b.arena, b.lines, b.framed, b.recs, b.err = b.arena[:0], b.lines[:0], b.framed[:0], b.recs[:0], nil
		if b.ack != nil {
			close(b.ack)
			b.ack = nil
		}
		if b.copied > 0 {
			copied.Add(-b.copied)
			b.copied = 0
		}
		select {
		case free <- b:
		default:
		}
	}
}

// reopen is f.Reopen, except that a file the run checks through its
// Overlay is read from the overlay's bytes.
func (e *Engine) reopen(f *model.File) (*io.SectionReader, func(), error) {
	if data, ok := e.opts.Overlay[f.OSPath]; ok && !f.Stdin {
		return io.NewSectionReader(bytes.NewReader(data), 0, f.Bytes), func() {}, nil
	}
	return f.Reopen()
}

// records reads the transcript f again for its records, as checkLines
// made them: the same bytes (up to f.Bytes, from the same source), framed
// and decoded the same way. It gives nil when f cannot be read again.
func (e *Engine) records(f *model.File) []*entry.Record {
	if !f.Kind.IsTranscript() {
		return nil
	}
	src, done, err := e.reopen(f)
	if err != nil {
		return nil
	}
	defer done()
	rd := jsonl.NewReader(src)
	rd.Long = &e.long
	rd.Frame = true
	defer rd.Release()
	if e.opts.MaxLine > 0 {
		rd.MaxLine = e.opts.MaxLine
	}
	tree := trees.Get().(*jsontree.Tree)
	defer func() {
		tree.Raw = nil
		trees.Put(tree)
	}()
	var recs []*entry.Record
	l := &model.Line{}
	for {
		l.Raw, tree.Raw = nil, nil
		jl, err := rd.Next()
		if err != nil {
			break
		}
		*l = model.Line{File: f, Num: jl.Num, Offset: jl.Offset, Raw: jl.Bytes, Length: jl.Length,
			Newline: jl.Newline, Cut: jl.Cut, Blank: jl.Blank, NUL: jl.NUL, BadUTF8: jl.BadUTF8, BOM: jl.BOM}
		switch {
		case !jl.Parse:
		case e.opts.Reference:
			decodeReference(l, &jl)
		default:
			decode(l, &jl, tree)
		}
		if l.IsObject() {
			recs = append(recs, entry.Extract(l.Root, l.Num, l.Offset))
		}
	}
	return recs
}

// trees are reusable parse trees, one per file being checked.
var trees = sync.Pool{New: func() any { return new(jsontree.Tree) }}

// decode parses a framed line (jl.Parse) into tree, which the rules read
// through l.Root: the fast path. A line that does not parse is decoded
// again by encoding/json for its exact error message.
func decode(l *model.Line, jl *jsonl.Line, tree *jsontree.Tree) {
	if err := tree.Parse(l.Raw); err != nil {
		if l.NUL = jl.FindNUL(); l.NUL < 0 {
			decodeReference(l, jl)
		}
		return
	}
	switch tree.Kind(jsontree.Root) {
	case jsontree.Null:
		l.Err, l.ErrOff = jsontree.ErrNull, 0
		return
	case jsontree.Object:
		l.Type = entryType(tree)
	}
	l.Tree = tree
	l.Root = jsontree.TreeVal(tree)
}

// entryType returns the "type" of a parsed line's root object, or "": the
// common types without a copy.
func entryType(tree *jsontree.Tree) string {
	k := tree.Get(jsontree.Root, "type")
	if tree.Kind(k) != jsontree.String {
		return ""
	}
	if !tree.Nodes[k].Esc {
		switch t := tree.RawBytes(k); string(t) {
		case "user":
			return "user"
		case "assistant":
			return "assistant"
		case "system":
			return "system"
		case "attachment":
			return "attachment"
		case "progress":
			return "progress"
		case "summary":
			return "summary"
		case "file-history-snapshot":
			return "file-history-snapshot"
		case "file-history-delta":
			return "file-history-delta"
		case "last-prompt":
			return "last-prompt"
		}
	}
	return tree.StrOrEmpty(k)
}

// decodeReference decodes a framed line (jl.Parse) with encoding/json: the
// reference path, and the fast path's error messages. A line with a NUL
// byte never decodes; nul-bytes reports it, and the decoder's message
// would only repeat it.
func decodeReference(l *model.Line, jl *jsonl.Line) {
	v, off, err := jsontree.Decode(l.Raw)
	if err == nil {
		l.SetDecoded(v)
		return
	}
	if errors.Is(err, jsontree.ErrTooDeep) {
		// JSON nested past what the decoders read (oversized says so),
		// unless it breaks further on: then it is not JSON at all.
		if at, ok := jsontree.ValidDeep(l.Raw); !ok {
			off, err = at, fmt.Errorf("broken at offset %d, past %d levels of nesting", at, jsontree.MaxDepth)
		}
	}
	if l.NUL = jl.FindNUL(); l.NUL < 0 {
		l.ErrOff, l.Err = off, err
	}
}

// checkDoc reads a whole-document file (todos) and decodes it.
func (e *Engine) checkDoc(f *model.File) {
	rc, _, err := e.open(f)
	if err != nil {
		e.unreadable(f, 0, err)
		return
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxDocBytes+1))
	if err != nil {
		e.unreadable(f, 0, err)
		return
	}
	f.Bytes = int64(len(data))
	if len(data) > MaxDocBytes {
		f.DocErr, f.DocErrAt = fmt.Errorf("file is larger than %d MiB; not checked", MaxDocBytes>>20), 0
		return
	}
	f.Doc = data
	f.Lines = bytes.Count(data, []byte{'\n'}) + 1
	if !utf8.Valid(data) {
		f.DocErr, f.DocErrAt = errors.New("invalid UTF-8"), jsonl.FirstInvalidUTF8(data)
		return
	}
	v, off, err := jsontree.Decode(data)
	if err != nil {
		f.DocErr, f.DocErrAt = err, off
		return
	}
	f.DocValue = v
	f.Entries = 1
}
