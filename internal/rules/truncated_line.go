package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// TruncatedLine reports a last line that has no newline and does not parse:
// the writer crashed or was killed in the middle of an append.
var TruncatedLine = register(&Rule{
	ID:       "truncated-line",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "the last line is cut off (a crash during an append)",
	Why: "Claude Code appends one line per entry; a crash mid-write leaves a partial last line " +
		"without newline. The reader drops it, and a resume can come up blank (issue 53821).",
	Bad:  `{"parentUuid":"6a1f…","isSidechain":false,"type":"assistant","message":{"content":[{"type":"te`,
	Good: `{"parentUuid":"6a1f…","isSidechain":false,"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}`,
	Fix:  "Delete the partial last line (everything after the last newline).",
	Line: func(r *Rule, l *model.Line) {
		if l.Err == nil || l.Newline {
			return
		}
		l.Report(r, l.ErrOff, "last line is truncated (no newline and incomplete JSON): "+l.Err.Error())
	},
})
