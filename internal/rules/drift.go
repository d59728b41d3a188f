package rules

import (
	"strconv"

	"github.com/ccvet/ccvet/internal/model"
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
func UnknownTypes(l *model.Line) []TypeProblem {
	v := l.File.Env.Schema
	if !l.IsObject() || v == nil || !l.File.Kind.IsTranscript() || l.Type == "" {
		return nil
	}
	if !v.KnownEntryType(l.Type) {
		return []TypeProblem{{"entry type", l.Type, "/type"}}
	}
	var out []TypeProblem
	if l.Type == "system" {
		if st, ok := l.Root.Get("subtype").Str(); ok && !schema.KnownSystemSubtype(st) {
			out = append(out, TypeProblem{"system subtype", st, "/subtype"})
		}
	}
	for i, b := range l.Root.Get("message").Get("content").Items() {
		// The bytes first: a known type (nearly all) is not copied.
		if t, ok := b.Get("type").StrBytes(nil); ok && !schema.KnownBlockType(string(t)) {
			out = append(out, TypeProblem{"content block type", string(t), "/message/content/" + strconv.Itoa(i) + "/type"})
		}
	}
	return out
}
