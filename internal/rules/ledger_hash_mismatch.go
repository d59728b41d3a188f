package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerHashMismatch reports a blob or shape whose content does not match its hash.
var LedgerHashMismatch = register(&Rule{
	ID:       "ledger-hash-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an `api-request-blob` or `api-request-shape` whose content does not hash to the name it is stored under",
	Why: ledgerWhy + " The hash is the sha256 of the content's canonical JSON (keys sorted, no white space, no " +
		"`cache_control`, a message's string content as one text block), established on 2.1.330's output. Content " +
		"that does not match was edited after it was written: the record no longer shows what was sent. " +
		"An `api-request`'s `requestDigest` is not checked: how it is computed could not be established from " +
		"the requests 2.1.330 sent.",
	Bad:   `{"type":"api-request-blob","hash":"8efc…","message":{"role":"user","content":"edited"}}`,
	Good:  `{"type":"api-request-blob","hash":"8efc… (sha256 of the message's canonical JSON)","message":{…}}`,
	Fix:   "Restore the line from a backup of the transcript.",
	Keeps: keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, s := range facts.Blobs {
				if s.Actual != "" && s.Hash != s.Actual {
					ledgerReport(r, f, s.Line, "/hash", "api-request-blob "+s.Hash+": its message hashes to "+s.Actual+": it was changed after it was written")
				}
			}
			for _, s := range facts.Shapes {
				if s.Actual != "" && s.Hash != s.Actual {
					ledgerReport(r, f, s.Line, "/shapeHash", "api-request-shape "+s.Hash+": its shape hashes to "+s.Actual+": it was changed after it was written")
				}
			}
		}
	},
})
