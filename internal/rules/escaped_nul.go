package rules

import (
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
)

// EscapedNUL reports a \u0000 escape inside message content.
var EscapedNUL = register(&Rule{
	ID:       "escaped-nul",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "message content holds a \\u0000 character",
	Why: "The line is valid JSON, but a NUL character inside a tool result or message is where the " +
		"request to the API gets cut off when the session is resumed (issue 94055): the model sees " +
		"a truncated conversation.",
	Bad:  `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01…","content":"abc\u0000def"}]}}`,
	Good: `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01…","content":"abcdef"}]}}`,
	Fix:  "Remove the NUL character from the content (binary output belongs in a file, not in the transcript).",
	Line: func(r *Rule, l *Line) {
		if l.Obj == nil || !l.File.Kind.IsTranscript() || (l.Type != "user" && l.Type != "assistant") {
			return
		}
		msg, _ := l.Obj["message"].(map[string]any)
		if msg == nil {
			return
		}
		if ptr, ok := findNUL(msg["content"], "/message/content"); ok {
			// Point at the escape itself, inside the string value.
			off, _ := jsonpos.Find(l.Raw, ptr, false)
			if i := jsonpos.EscapedNUL(l.Raw[off:]); i >= 0 {
				off += i
			}
			l.Emit(r, finding.Finding{Column: l.Column(off), Pointer: ptr,
				Message: "a \\u0000 character in message content; the API request is cut off there on resume"})
		}
	},
})

// findNUL returns the pointer of the first string under v that holds U+0000.
func findNUL(v any, ptr string) (string, bool) {
	switch x := v.(type) {
	case string:
		return ptr, strings.IndexByte(x, 0) >= 0
	case []any:
		for i, e := range x {
			if p, ok := findNUL(e, ptr+"/"+strconv.Itoa(i)); ok {
				return p, true
			}
		}
	case map[string]any:
		for _, k := range []string{"text", "content", "thinking"} {
			if e, ok := x[k]; ok {
				if p, ok := findNUL(e, ptr+"/"+k); ok {
					return p, true
				}
			}
		}
	}
	return "", false
}
