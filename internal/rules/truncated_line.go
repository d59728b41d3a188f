package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// TruncatedLine reports a last line that has no newline and does not parse:
// the writer crashed or was killed in the middle of an append.
var TruncatedLine = register(&Rule{
	ID:       "truncated-line",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "the last line is cut off (a crash during an append)",
	Why: "Claude Code appends one line per entry; a crash mid-write leaves a partial last line " +
		"without newline: that entry's bytes are destroyed and the reader skips it (issue 53821). " +
		"Measured: 2.1.330 writes a newline before its next append; 2.1.110 appends straight onto " +
		"the fragment, so every later entry appended to the file fuses onto it and is lost too.",
	Bad:  `{"parentUuid":"6a1f…","isSidechain":false,"type":"assistant","message":{"content":[{"type":"te`,
	Good: `{"parentUuid":"6a1f…","isSidechain":false,"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}`,
	Fix:  "Delete the partial last line (everything after the last newline).",
	Line: func(r *Rule, l *model.Line) {
		if !l.Broken() || l.Newline {
			return // a deep line is JSON (oversized; missing-final-newline)
		}
		msg := "last line is truncated (no newline and incomplete JSON): " + l.Err.Error() + "; the reader skips it"
		var outs []outcome
		for _, v := range readersOfLine(l) {
			if resume.ProfileOf(v).NewlineFirst {
				outs = append(outs, outcome{v, finding.Error, "writes a newline before the next append"})
			} else {
				outs = append(outs, outcome{v, finding.Error, "appends the next entry onto this fragment, so that entry is lost too"})
			}
		}
		_, how := verdict(outs)
		l.Report(r, l.ErrOff, msg+"; on the next append "+how)
	},
})
