package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// BlankLine reports an empty or white-space-only line in a JSONL file.
var BlankLine = register(&Rule{
	ID:       "blank-line",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "an empty or white-space-only line",
	Why: "Claude Code never writes blank lines. One usually means two writers appended at once " +
		"or a file was edited by hand; strict JSONL readers reject it.",
	Bad:  `{"type":"user",…}` + "\n\n" + `{"type":"assistant",…}`,
	Good: `{"type":"user",…}` + "\n" + `{"type":"assistant",…}`,
	Fix:  "Delete the blank line.",
	Line: func(r *Rule, l *model.Line) {
		if l.Blank {
			l.Report(r, 0, "blank line")
		}
	},
})
