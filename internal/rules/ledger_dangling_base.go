package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerDanglingBase reports an api-request whose base names no request.
var LedgerDanglingBase = register(&Rule{
	ID:       "ledger-dangling-base",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an `api-request` keeps messages of a `base` request that no transcript of the project holds",
	Why:      ledgerWhy + " Without its base, the kept messages of this request, and of every request built on it, can no longer be rebuilt.",
	Bad:      `{"type":"api-request","id":"b…","base":"a… (no such request)","keep":2,"tail":[…],…}`,
	Good:     `{"type":"api-request","id":"b…","base":"a… (an api-request earlier in the file)","keep":2,"tail":[…],…}`,
	Fix:      "Restore the line of the base request (from a backup of the transcript), or accept that the record of what was sent is partial.",
	Keeps:    keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, q := range facts.Requests {
				if q.Keep > 0 && pl.requests[q.Base] == nil {
					msg := "api-request " + q.ID + " keeps " + itoa(q.Keep) + " messages of base " + quote(q.Base) +
						", which no transcript of the project holds: what this request sent can no longer be rebuilt"
					if q.Base == "" {
						msg = "api-request " + q.ID + " keeps " + itoa(q.Keep) + " messages but names no base request: what it sent can no longer be rebuilt"
					}
					ledgerReport(r, f, q.Line, "/base", msg)
				}
			}
		}
	},
})
