package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// MissingFinalNewline reports a complete last line without its newline.
var MissingFinalNewline = register(&Rule{
	ID:       "missing-final-newline",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "the last line parses but has no terminating newline",
	Why: "Claude Code ends every line with a newline. Some exporters strip the last one. Measured: " +
		"2.1.330 writes a newline before appending to such a file (nothing lost: a warning); 2.1.110 " +
		"appends straight onto the line, so the next entry fuses onto it and both are lost (an error " +
		"for files in a projects/ folder that a version before 2.1.330 may append to; a loose export is a warning; where between 2.1.110 and 2.1.330 this " +
		"changed is not known).",
	Bad:  `{"type":"assistant",…}<EOF>`,
	Good: `{"type":"assistant",…}` + "\n<EOF>",
	Fix:  "Append a newline to the file.",
	Line: func(r *Rule, l *model.Line) {
		if l.Newline || l.Blank || l.Broken() || l.NUL >= 0 || l.BadUTF8 >= 0 || l.Cut {
			return
		}
		if !l.File.InLayout {
			l.Report(r, len(l.Raw), "last line has no terminating newline (a loose file outside a projects/ folder, "+
				"which Claude Code does not append to; were it appended to by a version before 2.1.330, the next "+
				"entry would fuse onto this line)")
			return
		}
		var outs []outcome
		for _, v := range readersOfLine(l) {
			if resume.ProfileOf(v).NewlineFirst {
				outs = append(outs, outcome{v, finding.Warning, "writes a newline first (nothing lost)"})
			} else {
				outs = append(outs, outcome{v, finding.Error, "appends the next entry onto this line, so both are lost"})
			}
		}
		sev, how := verdict(outs)
		l.Emit(r, finding.Finding{Column: l.Column(len(l.Raw)), Severity: sev,
			Message: "last line has no terminating newline; when Claude Code next appends to this file " + how})
	},
})
