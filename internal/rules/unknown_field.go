package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/schema"
)

// UnknownField reports a field the schemas do not know. Off by default; on
// (as an error) with --strict, for format regression tests.
var UnknownField = register(&Rule{
	ID:       "unknown-field",
	Severity: finding.Warning,
	Enabled:  false,
	Strict:   true,
	Summary:  "a field that no schema declares (a newer Claude Code version, or a typo)",
	Why: "Claude Code adds fields in new versions. Tools that parse transcripts want to know the " +
		"day a new field appears; run with --strict in their CI to make it fail.",
	Bad:  `{"parentUuid":null,"type":"user","brandNewField":1,…}`,
	Good: `{"parentUuid":null,"type":"user",…}`,
	Fix:  "Teach your parser about the field, then update ccvet (or disable the rule).",
	Line: func(r *Rule, l *model.Line) {
		if l.SchemaVerdict() == schema.Valid {
			return
		}
		for _, p := range l.SchemaProblems() {
			if p.UnknownField {
				l.ReportPointer(r, p.Pointer, true, p.Message+writerNote(l))
			}
		}
	},
})
