package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// InvalidJSON reports a line that is not one JSON value. Claude Code drops
// such a line silently when it loads the session, so whatever hung below it
// in the conversation is cut off (issues 50347, 14132).
var InvalidJSON = register(&Rule{
	ID:       "invalid-json",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a line is not a single JSON value",
	Why: "Claude Code parses each line on its own and silently drops one that does not parse; " +
		"entries parented to it become unreachable and the resumed conversation is cut there.",
	Bad:  `{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}{"parentUuid":"…"`,
	Good: `{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}`,
	Fix:  "Restore the line from a backup or remove it and re-parent its children to its parent.",
	Line: func(r *Rule, l *model.Line) {
		if l.Err == nil || !l.Newline {
			return // a damaged last line without newline is truncated-line
		}
		l.Report(r, l.ErrOff, "line is not valid JSON: "+l.Err.Error())
	},
	File: func(r *Rule, f *model.File) {
		if f.DocErr != nil {
			f.ReportDoc(r, f.DocErrAt, "", "file is not valid JSON: "+f.DocErr.Error())
		}
	},
})
