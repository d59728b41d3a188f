package rules

import (
	"bytes"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// LoneSurrogate reports a \uD800-\uDFFF escape without its pair.
var LoneSurrogate = register(&Rule{
	ID:       "lone-surrogate",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a string holds half of a UTF-16 surrogate pair (\\ud83c alone)",
	Why: "The line parses, but the string is not valid Unicode. Measured: 2.1.110 sends it as is " +
		"on resume and the real API rejects every request that includes it (400 \"no low surrogate " +
		"in string\", issue 45982), so the session cannot continue; 2.1.330 sends U+FFFD in its " +
		"place (the half character is lost, the session goes on: a warning for files only such " +
		"readers read). Where between the two this changed is not known.",
	Bad:  `{"type":"user","message":{"role":"user","content":"party \ud83c"}}`,
	Good: `{"type":"user","message":{"role":"user","content":"party \ud83c\udf89"}}`,
	Fix:  "Remove the lone escape or complete the pair.",
	Line: func(r *Rule, l *model.Line) {
		if !l.Parsed() {
			return
		}
		if l.Tree != nil && !l.Tree.Surrogate {
			return // the parser saw no surrogate escape
		}
		if !mayHoldSurrogate(l.Raw) {
			return
		}
		if off := jsonpos.LoneSurrogate(l.Raw); off >= 0 {
			end := off + 6
			if end > len(l.Raw) {
				end = len(l.Raw)
			}
			var outs []outcome
			for _, v := range readersOfLine(l) {
				if resume.ProfileOf(v).FixSurrogates {
					outs = append(outs, outcome{v, finding.Warning, "sends U+FFFD in its place"})
				} else {
					outs = append(outs, outcome{v, finding.Error, "sends it as is and the API rejects every request holding it"})
				}
			}
			sev, how := verdict(outs)
			l.Emit(r, finding.Finding{Column: l.Column(off), Severity: sev, Message: "lone UTF-16 surrogate escape " +
				string(l.Raw[off:end]) + " in a string; on resume " + how})
		}
	},
})

// mayHoldSurrogate reports whether line holds "\\u" followed by "d8" to "df"
// (any case): without one, LoneSurrogate has nothing to find.
func mayHoldSurrogate(line []byte) bool {
	for {
		i := bytes.Index(line, []byte(`\u`))
		if i < 0 || i+3 >= len(line) {
			return false
		}
		if c, d := line[i+2]|0x20, line[i+3]|0x20; c == 'd' && (d >= '8' && d <= '9' || d >= 'a' && d <= 'f') {
			return true
		}
		line = line[i+2:]
	}
}
