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
		n := 0
		for _, p := range l.SchemaProblems() {
			if !p.UnknownField {
				continue
			}
			if n++; n <= maxUnknownFieldsPerLine {
				l.ReportPointer(r, p.Pointer, true, p.Message+writerNote(l))
			}
		}
		if more := n - maxUnknownFieldsPerLine; more > 0 {
			l.Emit(r, finding.Finding{Message: plural(more, "more unknown field", "more unknown fields") +
				" on this line, not reported one by one" + writerNote(l)})
		}
	},
})

// maxUnknownFieldsPerLine bounds the unknown-field findings of one line: each
// costs a scan of the line to place it, and a line of a million unknown keys
// (a hostile or generated file) must not take quadratic time or flood the report.
const maxUnknownFieldsPerLine = 100
