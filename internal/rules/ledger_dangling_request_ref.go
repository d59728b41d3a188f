package rules

import (
	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerDanglingRequestRef reports an assistant requestRef naming no request.
var LedgerDanglingRequestRef = register(&Rule{
	ID:       "ledger-dangling-request-ref",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an assistant entry's `requestRef` names no `api-request` of the project",
	Why: ledgerWhy + " Each assistant entry names the request that produced it in `requestRef`; a resumed " +
		"or forked session's entries may name requests in the file it came from. A name found in no transcript " +
		"of the project means the request that produced this answer can no longer be shown. Not reported: a reply " +
		"written by Claude Code " + firstUnrecorded + " to " + lastUnrecorded + " above every api-request of its file, " +
		"since those versions record no api-request for the first request of an interactive session (measured).",
	Bad:   `{"type":"assistant","requestRef":"69f3… (no such api-request)",…}`,
	Good:  `{"type":"assistant","requestRef":"69f3… (an api-request of this or a sibling transcript)",…}`,
	Fix:   "Restore the api-request line from a backup of the transcript.",
	Keeps: keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			first := 0 // the line of the file's first api-request
			for _, q := range facts.Requests {
				if first == 0 || q.Line < first {
					first = q.Line
				}
			}
			for _, ref := range facts.Refs {
				if pl.requests[ref.Ref] != nil {
					continue
				}
				if (first == 0 || ref.Line < first) && unrecordedFirstRequest(ref.Version) {
					continue // never recorded by the version that wrote it: nothing was lost
				}
				msg := "assistant entry " + ref.UUID + ": requestRef " + quote(ref.Ref)
				if !f.InLayout {
					// Standard input, or a transcript outside a projects/ folder:
					// a fork or a resume copies entries whose requests stay in
					// the transcript it came from, which is not here to look in.
					rec := recordAt(f, ref.Line)
					if rec == nil {
						rec = entry.Ref(ref.Line, 0)
					}
					f.ReportRecord(r, rec, "/requestRef", finding.Finding{Severity: finding.Note, Message: msg +
						" names no api-request of this file or those beside it; a fork or resume names requests of the transcript it came from, so `ccvet request` needs that file too"})
					continue
				}
				ledgerReport(r, f, ref.Line, "/requestRef", msg+" names no api-request of the project: the request that produced it can no longer be shown")
			}
		}
	},
})

// The versions whose interactive sessions record no api-request for their
// first request while its reply names one in requestRef (measured with the
// oracle's interactive scenario on 2026-11-26: 2.1.299 writes no ledger at
// all; 2.1.300, 2.1.302, 2.1.304, 2.1.305, 2.1.307 and 2.1.308 leave the
// first request out; 2.1.309, 2.1.310 and later record it; -p runs record
// every request).
const (
	firstUnrecorded = "2.1.300"
	lastUnrecorded  = "2.1.308"
)

// unrecordedFirstRequest reports whether version v, which wrote an
// assistant entry, is one that leaves its session's first request out of
// the ledger.
func unrecordedFirstRequest(v string) bool {
	return v != "" && !ccversion.Less(v, firstUnrecorded) && !ccversion.Less(lastUnrecorded, v)
}
