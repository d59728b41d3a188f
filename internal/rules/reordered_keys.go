package rules

import (
	"bytes"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

var parentUUIDPrefix = []byte(`{"parentUuid":`)

// ReorderedKeys reports a chain entry whose line does not start the way
// Claude Code writes it.
var ReorderedKeys = register(&Rule{
	ID:       "reordered-keys",
	Severity: finding.Note,
	Enabled:  true,
	Summary:  "a chain entry line does not start with {\"parentUuid\":",
	Why: "Claude Code writes `parentUuid` first, and from 2.1.77 (changelog) a resume of a file " +
		"over 5 MB pre-filters its lines by that prefix. A line that starts otherwise was re-serialized " +
		"(jq, a formatter). Measured on 2.1.110 and 2.1.330, a re-serialized session over 5 MiB " +
		"resumes with the same messages, so this is a note: nothing is lost; tools that rely on " +
		"Claude Code's own key order may misread the line.",
	Bad:  `{"type":"user","parentUuid":null,"uuid":"…",…}`,
	Good: `{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"…",…}`,
	Fix:  "Write the file back with Claude Code's key order (parentUuid first), without spaces after the brace.",
	Line: func(r *Rule, l *model.Line) {
		if !l.IsObject() || !l.File.Kind.IsTranscript() {
			return
		}
		switch l.Type {
		case "user", "assistant", "system", "attachment", "progress":
		default:
			return
		}
		if bytes.HasPrefix(l.Raw, parentUUIDPrefix) {
			return
		}
		l.Report(r, 0, "chain entry does not start with {\"parentUuid\": (re-serialized?); a resume loses "+
			"nothing (measured on 2.1.110 and 2.1.330, also over the 5 MB where 2.1.77+ pre-filters by that prefix)")
	},
})
