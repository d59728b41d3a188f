package rules

import (
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
		"of the project means the request that produced this answer can no longer be shown.",
	Bad:   `{"type":"assistant","requestRef":"69f3… (no such api-request)",…}`,
	Good:  `{"type":"assistant","requestRef":"69f3… (an api-request of this or a sibling transcript)",…}`,
	Fix:   "Restore the api-request line from a backup of the transcript.",
	Keeps: keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, ref := range facts.Refs {
				if pl.requests[ref.Ref] != nil {
					continue
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
