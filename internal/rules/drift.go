package rules

import (
	"strconv"

	"github.com/ccvet/ccvet/internal/schema"
)

// TypeProblem is a type name in a transcript entry that the schemas do not
// know: an entry type, a system subtype or a content block type.
type TypeProblem struct {
	Kind    string // "entry type", "system subtype" or "content block type"
	Name    string
	Pointer string // JSON pointer of the type's value
}

// UnknownTypes lists the types of a transcript line that the schemas do not
// know (rule unknown-type, and ccvet stats). An unknown entry type hides the
// rest: its subtypes and blocks mean nothing known.
func UnknownTypes(l *Line) []TypeProblem {
	v := l.File.Env.Schema
	if l.Obj == nil || v == nil || !l.File.Kind.IsTranscript() || l.Type == "" {
		return nil
	}
	if !v.KnownEntryType(l.Type) {
		return []TypeProblem{{"entry type", l.Type, "/type"}}
	}
	var out []TypeProblem
	if l.Type == "system" {
		if st, ok := l.Obj["subtype"].(string); ok && !schema.KnownSystemSubtype(st) {
			out = append(out, TypeProblem{"system subtype", st, "/subtype"})
		}
	}
	msg, _ := l.Obj["message"].(map[string]any)
	blocks, _ := msg["content"].([]any)
	for i, b := range blocks {
		bm, _ := b.(map[string]any)
		if t, ok := bm["type"].(string); ok && !schema.KnownBlockType(t) {
			out = append(out, TypeProblem{"content block type", t, "/message/content/" + strconv.Itoa(i) + "/type"})
		}
	}
	return out
}
