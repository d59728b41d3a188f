// Package rules holds the rule catalogue: each rule's documentation and its check, one file per rule.
package rules

import (
	"fmt"
	"sort"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// Rule is one check with its documentation. A rule's check runs at one or
// more of the stages the engine visits: each line, each file, each project
// folder, and the whole store.
type Rule struct {
	ID       string           // stable kebab-case id, e.g. "invalid-json"
	Severity finding.Severity // default severity
	Enabled  bool             // on by default
	Strict   bool             // switched on, as an error, by --strict
	Since    string           // ccvet version that introduced it

	Summary string // one line: what it catches
	Why     string // what breaks for the user
	Bad     string // an input that triggers it
	Good    string // the same input, healthy
	Fix     string // how to repair

	// Checks receive their own rule, to report with. Each may be nil.
	Line func(r *Rule, l *model.Line) // per line of a JSONL file (transcripts and history)
	// Early, when not nil, runs on the goroutines that parse a long
	// file's lines, before Line sees the line: the part of a line check
	// that reads the line alone (the secret rule's scan). Lines come in
	// any order, several at once; what it finds goes in l.Early, for Line
	// to report in file order. scratch is the rule's own, one per
	// goroutine and file. At most one rule has an Early check (l.Early is
	// one value); a line Early did not see (a short file) has l.Early nil.
	Early   func(r *Rule, l *model.Line, scratch *any)
	File    func(r *Rule, f *model.File)    // after a whole file has been read
	Project func(r *Rule, p *model.Project) // after every file of one project folder
	Store   func(r *Rule, s *model.Store)   // after everything
	// Prepare does store-wide work that needs no transcript's checks (the
	// secret rule's scan of the data root's plain copies) on the run's
	// workers, once every file is handed out: it fills the time in which
	// the last projects are checked. It may run while File and Project
	// checks still do; Store runs after it.
	Prepare func(r *Rule, s *model.Store)

	// Keeps, run when a file's own checks are done (in parallel, before
	// the rest of its project is read), reports whether Project needs f's
	// full records: whether it may report on f, or look up in f what its
	// digest (f.Digest) does not give. Where Project has nothing to say
	// about f as long as some names resolve in other files, Keeps adds
	// them to f.Asks (f.Ask) instead. A file none needs keeps only its
	// digest and its store records until the project's checks (f.Thin);
	// Project skips it as a subject, unless one of its Asks resolves
	// nowhere: then it is read again first (Thin is false). A rule with a
	// Project check and no Keeps keeps every file whole.
	Keeps func(r *Rule, p *model.Project, f *model.File) bool
}

var registry = map[string]*Rule{}

// register adds r to the catalogue; rule files call it from init.
func register(r *Rule) *Rule {
	if _, dup := registry[r.ID]; dup {
		panic(fmt.Sprintf("rules: duplicate rule id %q", r.ID))
	}
	if r.Since == "" {
		r.Since = "0.1.0"
	}
	if r.Early != nil {
		for _, o := range registry {
			if o.Early != nil {
				panic(fmt.Sprintf("rules: %q and %q both have an Early check", o.ID, r.ID))
			}
		}
	}
	registry[r.ID] = r
	return r
}

// All returns every rule sorted by id.
func All() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup finds a rule by id.
func Lookup(id string) (*Rule, bool) {
	r, ok := registry[id]
	return r, ok
}

// RuleID is r's id: *Rule is the model.Rule that findings are reported for.
func (r *Rule) RuleID() string { return r.ID }

// DefaultSeverity is r's severity before the run's overrides.
func (r *Rule) DefaultSeverity() finding.Severity { return r.Severity }
