package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerKeepOverflow reports an api-request that keeps more messages than its base sent.
var LedgerKeepOverflow = register(&Rule{
	ID:       "ledger-keep-overflow",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an `api-request` keeps more messages than its `base` request sent",
	Why:      ledgerWhy + " A `keep` larger than the base's message count (its own keep plus its tail) names messages that do not exist.",
	Bad:      `{"type":"api-request","base":"a… (sent 2 messages)","keep":5,…}`,
	Good:     `{"type":"api-request","base":"a… (sent 2 messages)","keep":2,…}`,
	Fix:      "The line was altered; restore it from a backup of the transcript.",
	Keeps:    keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, q := range facts.Requests {
				b := pl.requests[q.Base]
				if q.Keep <= 0 || b == nil {
					continue
				}
				if n := messages(b); q.Keep > n {
					ledgerReport(r, f, q.Line, "/keep", "api-request "+q.ID+" keeps "+itoa(q.Keep)+
						" messages of base "+b.ID+", which sent only "+itoa(n)+": what this request sent can no longer be rebuilt")
				}
			}
		}
	},
})
