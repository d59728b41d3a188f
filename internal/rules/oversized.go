package rules

import (
	"errors"
	"fmt"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/model"
)

// Size limits past which Claude Code is known to struggle.
const (
	MaxLineBytes = 10 << 20  // issue 24118: a 12.8 MB line froze resume
	MaxFileBytes = 100 << 20 // issues 23373, 22365, 27505
)

// Oversized reports a line over 10 MB or a file over 100 MB, and a line
// nested deeper than ccvet reads (jsontree.MaxDepth).
var Oversized = register(&Rule{
	ID:       "oversized",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a line over 10 MB or a file over 100 MB, or a line nested too deep for ccvet to read",
	Why: "A single 12.8 MB line froze resume (issue 24118); files over 100 MB make Claude Code slow " +
		"or unable to load the session (issues 23373, 22365). A line that nests arrays or objects more " +
		"than 10,000 deep is JSON (Node's JSON.parse reads it) that ccvet does not read, so its content " +
		"is not checked.",
	Bad:  `{"type":"user","message":{"content":[{"type":"tool_result","content":"<12 MB of output>"}]}}`,
	Good: `{"type":"user","message":{"content":[{"type":"tool_result","content":"<persisted-output>…</persisted-output>"}]}}`,
	Fix:  "Start a new session or compact; move huge tool output to a file.",
	Line: func(r *Rule, l *model.Line) {
		if errors.Is(l.Err, jsontree.ErrTooDeep) {
			l.Report(r, l.ErrOff, fmt.Sprintf("line nests arrays or objects more than %d deep, where ccvet stops reading: "+
				"it is JSON, but its content was not checked", jsontree.MaxDepth))
		}
		if l.Length <= MaxLineBytes {
			return
		}
		msg := fmt.Sprintf("line is %s (over %s)", mib(l.Length), mib(MaxLineBytes))
		if l.Cut {
			msg += "; it is longer than ccvet holds in memory, so its content was not checked"
		}
		l.Report(r, 0, msg)
	},
	File: func(r *Rule, f *model.File) {
		if f.Bytes > MaxFileBytes {
			f.Emit(r, finding.Finding{Message: fmt.Sprintf("file is %s (over %s)", mib(f.Bytes), mib(MaxFileBytes))})
		}
	},
})

func mib(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
