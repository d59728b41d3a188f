package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// UnknownType reports an entry type, system subtype or content block type
// that ccvet's schemas do not know.
var UnknownType = register(&Rule{
	ID:       "unknown-type",
	Severity: finding.Warning,
	Enabled:  true,
	Strict:   true,
	Summary:  "an entry type, system subtype or content block type ccvet does not know",
	Why: "Claude Code's reader skips entry types it does not know, so a typo'd or foreign type is " +
		"silently lost; a new type from a newer version is something every transcript parser must learn.",
	Bad:  `{"parentUuid":null,"type":"usr",…}`,
	Good: `{"parentUuid":null,"type":"user",…}`,
	Fix:  "Correct the type, or update ccvet if a newer Claude Code wrote it.",
	Line: func(r *Rule, l *model.Line) {
		for _, p := range UnknownTypes(l) {
			l.ReportPointer(r, p.Pointer, false, "unknown "+p.Kind+" "+quote(p.Name)+writerNote(l))
		}
	},
})
