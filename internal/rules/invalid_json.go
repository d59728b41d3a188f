package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// InvalidJSON reports a line that is not one JSON value. Claude Code skips
// such a line silently when it loads the session (its entry is lost); what
// hung below it has a missing parent (see orphan-parent).
var InvalidJSON = register(&Rule{
	ID:       "invalid-json",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a line is not a single JSON value",
	Why: "Claude Code parses each line on its own and silently skips one that does not parse " +
		"(measured on 2.1.110, 2.1.330 and 2.1.332: the reader reads on, and only the broken line's entry is " +
		"lost). Entries parented to it then have a missing parent: 2.1.94 and later bridge it when " +
		"the child was written within 5 s of the entry before it, otherwise the resumed conversation " +
		"is cut there (see orphan-parent, issues 50347, 14132).",
	Bad:  `{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}{"parentUuid":"…"`,
	Good: `{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}`,
	Fix:  "Restore the line from a backup or remove it and re-parent its children to its parent.",
	Line: func(r *Rule, l *model.Line) {
		if !l.Broken() || !l.Newline {
			return // a damaged last line without newline is truncated-line; a deep one is oversized
		}
		l.Report(r, l.ErrOff, "line is not valid JSON: "+l.Err.Error())
	},
	File: func(r *Rule, f *model.File) {
		if f.DocErr != nil {
			f.ReportDoc(r, f.DocErrAt, "", "file is not valid JSON: "+f.DocErr.Error())
		}
	},
})
