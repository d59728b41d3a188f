package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// LedgerMissingShape reports an api-request whose shapeHash has no shape.
var LedgerMissingShape = register(&Rule{
	ID:       "ledger-missing-shape",
	Severity: finding.Warning,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "an `api-request` names a `shapeHash` that no `api-request-shape` of the project holds",
	Why:      ledgerWhy + " Without the shape, the system prompt and tools the model was given are unknown.",
	Bad:      `{"type":"api-request","shapeHash":"40f3… (no api-request-shape with it)",…}`,
	Good:     `{"type":"api-request-shape","shapeHash":"40f3…","shape":{…}} … {"type":"api-request","shapeHash":"40f3…",…}`,
	Fix:      "Restore the api-request-shape line from a backup of the transcript.",
	Keeps:    keepsNoLedger,
	Project: func(r *Rule, p *model.Project) {
		pl := ledgerOf(p)
		for f, facts := range pl.each() {
			for _, q := range facts.Requests {
				if q.ShapeHash != "" && !pl.shapes[q.ShapeHash] {
					ledgerReport(r, f, q.Line, "/shapeHash", "api-request "+q.ID+" names shape "+
						q.ShapeHash+", which no api-request-shape of the project holds: its system blocks and tools are unknown")
				}
			}
		}
	},
})
