package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// ByteOrderMark reports a UTF-8 byte order mark before the first line.
var ByteOrderMark = register(&Rule{
	ID:       "byte-order-mark",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a UTF-8 byte order mark (EF BB BF) before the first line",
	Why: "Claude Code never writes one; an editor that saves \"UTF-8 with BOM\" does. The reader of " +
		"Claude Code reads the line after it and loses nothing (measured on 2.1.330 and 2.1.332), and " +
		"ccvet reads the line as it does. Other tools that parse the file line by line choke on it: " +
		"Python's json.loads of the line (\"Unexpected UTF-8 BOM\"), JSON.parse in Node, Go's " +
		"encoding/json (jq 1.6 accepts it).",
	Bad:  "EF BB BF " + `{"type":"user",…}` + " (line 1)",
	Good: `{"type":"user",…}` + " (line 1)",
	Fix:  "Remove the first three bytes of the file, or save it as UTF-8 without a BOM.",
	Line: func(r *Rule, l *model.Line) {
		if l.BOM {
			l.Emit(r, finding.Finding{Column: 1, Message: "the file starts with a UTF-8 byte order mark: Claude Code reads " +
				"the line after it and loses nothing (measured on 2.1.330 and 2.1.332); Python's json.loads, JSON.parse " +
				"and Go's encoding/json reject the line"})
		}
	},
})
