package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// InvalidUTF8 reports bytes that are not UTF-8. JSON text must be UTF-8;
// decoders either reject the line or replace the bytes silently.
var InvalidUTF8 = register(&Rule{
	ID:       "invalid-utf8",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a line holds bytes that are not valid UTF-8",
	Why: "JSON must be UTF-8. Claude Code's reader mangles or drops such a line, and tools that " +
		"parse transcripts disagree on what it says.",
	Bad:  "{\"type\":\"user\",\"message\":{\"content\":\"caf\\xe9\"}}  (a Latin-1 byte)",
	Good: `{"type":"user","message":{"content":"café"}}`,
	Fix:  "Re-encode the text as UTF-8 or remove the damaged bytes.",
	Line: func(r *Rule, l *model.Line) {
		if l.BadUTF8 < 0 || l.NUL >= 0 {
			return
		}
		l.Report(r, l.BadUTF8, "invalid UTF-8 byte "+hexByte(l.Raw[l.BadUTF8]))
	},
})

func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[b>>4], digits[b&15]})
}
