package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// MissingFinalNewline reports a complete last line without its newline.
var MissingFinalNewline = register(&Rule{
	ID:       "missing-final-newline",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "the last line parses but has no terminating newline",
	Why: "Claude Code ends every line with a newline. Some exporters strip the last one; if " +
		"Claude Code appends to such a file, the next entry is fused onto this line and both are lost.",
	Bad:  `{"type":"assistant",…}<EOF>`,
	Good: `{"type":"assistant",…}` + "\n<EOF>",
	Fix:  "Append a newline to the file.",
	Line: func(r *Rule, l *model.Line) {
		if l.Newline || l.Blank || l.Err != nil || l.NUL >= 0 || l.BadUTF8 >= 0 || l.Cut {
			return
		}
		l.Report(r, len(l.Raw), "last line has no terminating newline")
	},
})
