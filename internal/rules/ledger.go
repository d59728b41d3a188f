package rules

import (
	"iter"
	"sort"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/ledger"
	"github.com/ccvet/ccvet/internal/model"
)

// projectLedger is the request ledger of a project folder: every file's
// facts, and what the ledger rules resolve names against. A resumed or
// forked session names requests in the file it came from, so names resolve
// project-wide.
type projectLedger struct {
	files    []*model.File
	facts    []*ledger.Facts
	requests map[string]*ledger.Request
	shapes   map[string]bool
	known    map[string]bool
}

// ledgerOf reads the ledger of p's transcripts once; nil when no file of p
// holds a ledger entry.
func ledgerOf(p *model.Project) *projectLedger {
	pl, _ := p.Memo(ledgerKey{}, func() any { return readProjectLedger(p) }).(*projectLedger)
	return pl
}

type ledgerKey struct{}

// each yields every transcript of the project that holds a ledger, with
// its facts; nothing when the project has no ledger (pl is nil).
func (pl *projectLedger) each() iter.Seq2[*model.File, *ledger.Facts] {
	return func(yield func(*model.File, *ledger.Facts) bool) {
		if pl == nil {
			return
		}
		for i, facts := range pl.facts {
			if !yield(pl.files[i], facts) {
				return
			}
		}
	}
}

// keepsNoLedger is the Keeps of the ledger rules: they read a file's
// ledger again at the project's close, and find its lines in its digest.
func keepsNoLedger(*Rule, *model.Project, *model.File) bool { return false }

func readProjectLedger(p *model.Project) *projectLedger {
	var pl *projectLedger
	for _, f := range p.Files {
		if !f.Kind.IsTranscript() || !hasLedger(f) {
			continue
		}
		facts := readLedger(f)
		if facts == nil {
			continue
		}
		if pl == nil {
			pl = &projectLedger{requests: map[string]*ledger.Request{}, shapes: map[string]bool{}, known: map[string]bool{}}
		}
		pl.files = append(pl.files, f)
		pl.facts = append(pl.facts, facts)
		for i := range facts.Requests {
			q := &facts.Requests[i]
			if q.ID != "" {
				pl.requests[q.ID] = q
			}
		}
		for _, s := range facts.Shapes {
			pl.shapes[s.Hash] = true
		}
		for h := range facts.Known {
			pl.known[h] = true
		}
	}
	return pl
}

// DigestLines reports whether f's digest must find its lines again
// (Digest.RecordAt): the ledger checks report on lines of files with a
// ledger entry, with no record left once the file is thin.
func DigestLines(f *model.File) bool { return hasLedgerRecords(f.Records) }

// hasLedger reports whether a transcript's records include a ledger entry.
func hasLedger(f *model.File) bool {
	if f.Thin {
		return f.Digest.HasLines()
	}
	return hasLedgerRecords(f.Records)
}

func hasLedgerRecords(recs []*entry.Record) bool {
	for _, rec := range recs {
		switch rec.Type {
		case "api-request", "api-request-blob", "api-request-shape":
			return true
		}
	}
	return false
}

// readLedger reads f again from the start for its ledger facts, the way
// the engine opens what it checks.
func readLedger(f *model.File) *ledger.Facts {
	src, done, err := f.Reopen()
	if err != nil {
		return nil
	}
	defer done()
	facts, _ := ledger.Read(src, false)
	return facts
}

// messages is how many messages request q sent: the Keep it kept of its
// base and the Tail it added.
func messages(q *ledger.Request) int { return q.Keep + len(q.Tail) }

// ledgerReport emits a finding on line n of f, at ptr.
func ledgerReport(r *Rule, f *model.File, n int, ptr, msg string) {
	rec := recordAt(f, n)
	if rec == nil {
		rec = entry.Ref(n, 0)
	}
	f.ReportRecord(r, rec, ptr, finding.Finding{Message: msg})
}

// recordAt finds the record of line n.
func recordAt(f *model.File, n int) *entry.Record {
	if f.Thin {
		return f.Digest.RecordAt(n)
	}
	i := sort.Search(len(f.Records), func(i int) bool { return int(f.Records[i].Line) >= n })
	if i < len(f.Records) && int(f.Records[i].Line) == n {
		return f.Records[i]
	}
	return nil
}

const ledgerWhy = "Claude Code 2.1.26x+ records every API request in the transcript as a delta chain " +
	"(`api-request` entries naming a base request, how many of its messages are kept, the content " +
	"hashes of the new ones, and the hash of the system blocks and tools in an `api-request-shape`; " +
	"messages the transcript's own entries do not give are stored in `api-request-blob`). The resume " +
	"does not read it (a session with every ledger line removed resumes the same), so nothing is lost " +
	"for the conversation; what breaks is the record of exactly what was sent to the model " +
	"(`ccvet request` rebuilds it)."
