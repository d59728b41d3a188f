package rules

import (
	"fmt"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// ByteOrderMark reports a UTF-8 byte order mark before the first line.
var ByteOrderMark = register(&Rule{
	ID:       "byte-order-mark",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a UTF-8 byte order mark (EF BB BF) before the first line",
	Why: "Claude Code never writes one; an editor that saves \"UTF-8 with BOM\" does. The reader of " +
		"Claude Code reads the line after it and loses nothing (measured on 2.0.69 to 2.1.332), and " +
		"ccvet reads the line as it does; versions before 2.0.69 skip the line, and a resume loses it " +
		"(measured on 1.0.25 to 2.0.67): an error under --reader-version of one of them. Other tools that " +
		"parse the file line by line choke on it: Python's json.loads of the line (\"Unexpected UTF-8 " +
		"BOM\"), JSON.parse in Node, Go's encoding/json (jq 1.6 accepts it).",
	Bad:  "EF BB BF " + `{"type":"user",…}` + " (line 1)",
	Good: `{"type":"user",…}` + " (line 1)",
	Fix:  "Remove the first three bytes of the file, or save it as UTF-8 without a BOM.",
	Line: func(r *Rule, l *model.Line) {
		if !l.BOM {
			return
		}
		readers := readersOfLine(l)
		reader := readers[len(readers)-1] // the reader the file is judged for
		f := finding.Finding{Column: 1}
		if reader.Less(resume.BOMLineRead) {
			f.Severity = finding.Error
			f.Message = fmt.Sprintf("the file starts with a UTF-8 byte order mark: Claude Code %s skips the first line "+
				"(versions before %s do, measured on 1.0.25 to 2.0.67), and a resume loses it", reader, resume.BOMLineRead)
		} else {
			f.Message = "the file starts with a UTF-8 byte order mark: Claude Code reads the line after it and loses " +
				"nothing (measured on 2.0.69 to 2.1.332"
			if w := readers[0]; !w.Zero() && w.Less(resume.BOMLineRead) {
				f.Message += fmt.Sprintf("; versions before %s skip it, %s among them, which wrote this line", resume.BOMLineRead, w)
			}
			f.Message += ")"
		}
		f.Message += "; Python's json.loads, JSON.parse and Go's encoding/json reject the line"
		l.Emit(r, f)
	},
})
