package rules

import (
	"strconv"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/model"
)

// EscapedNUL reports a \u0000 escape inside message content.
var EscapedNUL = register(&Rule{
	ID:       "escaped-nul",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "message content holds a \\u0000 character",
	Why: "The line is valid JSON, and the reader sends the NUL character as it is (measured on " +
		"2.1.110 and 2.1.330: the resumed request holds the same text with the NUL in it). Issue 94055 " +
		"reports the API cutting the request off at such a character; the stand-in API of ccvet's " +
		"oracle accepts it, so that part is reported, not measured. Binary output in a transcript is " +
		"also what other tools reading the file choke on.",
	Bad:  `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01…","content":"abc\u0000def"}]}}`,
	Good: `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01…","content":"abcdef"}]}}`,
	Fix:  "Remove the NUL character from the content (binary output belongs in a file, not in the transcript).",
	Line: func(r *Rule, l *model.Line) {
		if !l.IsObject() || !l.File.Kind.IsTranscript() || (l.Type != "user" && l.Type != "assistant") {
			return
		}
		if l.Tree != nil && !l.Tree.NULEscape {
			return // the parser saw no \u0000
		}
		msg := l.Root.Get("message")
		if msg.Kind() != jsontree.Object {
			return
		}
		if content := msg.Get("content"); containsNUL(content) {
			ptr, _ := findNUL(content, "/message/content")
			// Point at the escape itself, inside the string value.
			off, _ := jsonpos.Find(l.Raw, ptr, false)
			if i := jsonpos.EscapedNUL(l.Raw[off:]); i >= 0 {
				off += i
			}
			l.Emit(r, finding.Finding{Column: l.Column(off), Pointer: ptr,
				Message: "a \\u0000 character in message content; on resume the reader sends it as it is (measured on " +
					"2.1.110 and 2.1.330); issue 94055 reports the API cutting the request off there (not measured)"})
		}
	},
})

// findNUL returns the pointer of the first string under v that holds U+0000.
func findNUL(v jsontree.Val, ptr string) (string, bool) {
	switch v.Kind() {
	case jsontree.String:
		return ptr, v.HasNUL()
	case jsontree.Array:
		for i, e := range v.Items() {
			if containsNUL(e) {
				return findNUL(e, ptr+"/"+strconv.Itoa(i))
			}
		}
	case jsontree.Object:
		for _, k := range nulKeys {
			if e := v.Get(k); containsNUL(e) {
				return findNUL(e, ptr+"/"+k)
			}
		}
	}
	return "", false
}

var nulKeys = []string{"text", "content", "thinking"}

// containsNUL reports, without allocating, whether findNUL would find a NUL.
func containsNUL(v jsontree.Val) bool {
	switch v.Kind() {
	case jsontree.String:
		return v.HasNUL()
	case jsontree.Array:
		for _, e := range v.Items() {
			if containsNUL(e) {
				return true
			}
		}
	case jsontree.Object:
		for _, k := range nulKeys {
			if containsNUL(v.Get(k)) {
				return true
			}
		}
	}
	return false
}
