package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/schema"
)

// Schema reports an entry that does not match the JSON Schema of its type.
var Schema = register(&Rule{
	ID:       "schema",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "an entry does not match the JSON Schema of its type (an error only where the reader loses data)",
	Why: "Severity follows the consequence. An error is a shape that breaks Claude Code's reader or " +
		"loses data: an entry that is not an object or has no `type`, a chain entry without a usable " +
		"`uuid` or `parentUuid` (it drops out of the conversation), a user or assistant entry whose " +
		"`message` is not an object or whose `content` is neither text nor blocks (a resume silently " +
		"loses that turn), a content block that is not an object or lacks its `type`, `id`, `name` or " +
		"`tool_use_id`. A problem in a field the reader reads and works around (a timestamp that is " +
		"not a date, a missing `isSidechain`, `sessionId`, `message.id`, `message.role` or " +
		"`message.model`, a content block's other fields) is a warning that names the Claude Code " +
		"versions seen writing the field. A missing or odd field that nothing reads on resume " +
		"(`message.stop_reason`, `stop_sequence` and `usage`, which model gateways often leave out; " +
		"`cwd`, `version`, `userType`) is a note: data, not damage. --strict makes each an error, for format " +
		"regression CI. New fields and entry types are rules unknown-field and unknown-type.",
	Bad:  `{"parentUuid":null,"type":"user","uuid":"…","timestamp":"yesterday",…}`,
	Good: `{"parentUuid":null,"type":"user","uuid":"…","timestamp":"2025-11-02T10:14:03.512Z",…}`,
	Fix:  "Correct the value the message names; `ccvet schema TYPE` prints the schema.",
	Line: func(r *Rule, l *model.Line) {
		if !l.Parsed() {
			return
		}
		if l.File.Kind.IsTranscript() || l.File.Kind == layout.History {
			if !l.IsObject() {
				l.Report(r, 0, "entry must be a JSON object, got "+jsonKind(l.Root.Kind()))
				return
			}
		}
		if l.File.Kind.IsTranscript() {
			switch t := l.Root.Get("type"); t.Kind() {
			case jsontree.Invalid:
				l.ReportPointer(r, "", false, "entry has no `type` field")
				return
			case jsontree.Null:
				l.ReportPointer(r, "/type", false, "`type` must be a string, got null")
				return
			case jsontree.String:
			default:
				l.ReportPointer(r, "/type", false, "`type` must be a string, got "+jsonKind(t.Kind()))
				return
			}
		}
		if v := l.SchemaVerdict(); v == schema.Valid || v == schema.UnknownOnly {
			return
		}
		for _, f := range judgeSchema(l.Type, l.SchemaProblems(), l.File.Env.Strict) {
			l.Emit(r, finding.Finding{Column: l.Column(l.Find(f.ptr, false)), Pointer: f.ptr, Message: f.msg, Severity: f.severity})
		}
	},
	File: func(r *Rule, f *model.File) {
		if f.Kind != layout.Todos || f.DocValue == nil || f.Env.Schema == nil {
			return
		}
		for _, p := range f.Env.Schema.ValidateTodos(f.DocValue) {
			rule := r
			if p.UnknownField {
				if !f.Env.Enabled(UnknownField.ID) {
					continue
				}
				rule = UnknownField
			}
			f.ReportDocPointer(rule, p.Pointer, p.UnknownField, p.Message)
		}
	},
})

// jsonKind names the JSON type of a decoded value.
func jsonKind(k jsontree.Kind) string {
	switch k {
	case jsontree.Null:
		return "null"
	case jsontree.True, jsontree.False:
		return "a boolean"
	case jsontree.String:
		return "a string"
	case jsontree.Array:
		return "an array"
	case jsontree.Object:
		return "an object"
	}
	return "a number"
}
