package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerDanglingTail reports a tail hash that names no message.
var LedgerDanglingTail = register(&Rule{
	ID:       "ledger-dangling-tail",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an `api-request` tail hash names neither a stored blob nor a message the transcript's entries give",
	Why: ledgerWhy + " A tail hash is the sha256 of a message's canonical JSON (keys sorted, no `cache_control`, " +
		"string content as one text block). Claude Code stores a blob only for a message its own entries do not " +
		"give: a run of user entries, or of assistant entries sharing one message id, hashes to the message it " +
		"sent. A hash that matches neither means the message was removed or altered.",
	Bad:   `{"type":"api-request","tail":["8efc… (no blob, no matching entries)"],…}`,
	Good:  `{"type":"api-request-blob","hash":"8efc…","message":{…}} … {"type":"api-request","tail":["8efc…"],…}`,
	Fix:   "Restore the removed or edited lines from a backup of the transcript.",
	Keeps: keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, q := range facts.Requests {
				for j, h := range q.Tail {
					if !pl.known[h] {
						ledgerReport(r, f, q.Line, "/tail/"+itoa(j), "api-request "+q.ID+": tail message "+
							itoa(j+1)+" of "+itoa(len(q.Tail))+" ("+h+") is neither a stored blob nor a message the transcript's entries give: it can no longer be rebuilt")
					}
				}
			}
		}
	},
})
