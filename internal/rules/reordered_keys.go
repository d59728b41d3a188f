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
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a chain entry line does not start with {\"parentUuid\":",
	Why: "Claude Code writes `parentUuid` first, and from 2.1.77 it uses that prefix to tell chain " +
		"entries from metadata when a file is over 5 MB. A transcript re-serialized by jq or a " +
		"formatter loses its entries silently once it grows past that size.",
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
		l.Report(r, 0, "chain entry does not start with {\"parentUuid\":; from 2.1.77 Claude Code "+
			"treats such a line as metadata when the file is over 5 MB")
	},
})
