package rules

import (
	"regexp"
	"strings"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/schema"
)

// chainTypes are the entry types the reader links into the conversation.
var chainTypes = map[string]bool{"user": true, "assistant": true, "system": true, "attachment": true, "progress": true}

// messageTypes are the entry types whose message the reader sends to the API.
var messageTypes = map[string]bool{"user": true, "assistant": true}

var (
	schemaBlockPtr      = regexp.MustCompile(`^/message/content/[0-9]+$`)
	schemaBlockFieldPtr = regexp.MustCompile(`^/message/content/[0-9]+/(type|id|name|tool_use_id)$`)
)

// lossy reports whether a schema problem at ptr of an entry of type t is a
// shape that breaks the reader or loses data: the entry drops out of the
// chain (no usable uuid or parentUuid), or its message does not reach the
// API (no message object, content of the wrong kind, a block that is not an
// object or lacks what pairs it). Everything else the reader tolerates.
func lossy(t, ptr string) bool {
	switch {
	case ptr == "/uuid" || ptr == "/parentUuid":
		return chainTypes[t]
	case ptr == "/message" || ptr == "/message/content":
		return messageTypes[t]
	case schemaBlockPtr.MatchString(ptr) || schemaBlockFieldPtr.MatchString(ptr):
		return messageTypes[t]
	}
	return false
}

// schemaFinding is one report of the schema rule with its severity.
type schemaFinding struct {
	ptr      string
	msg      string
	severity finding.Severity
}

// judgeSchema splits the schema problems of an entry of type t into
// findings: an error for a lossy shape, a warning naming the versions that
// write the field for anything the reader tolerates (an error under
// --strict).
func judgeSchema(t string, probs []schema.Problem, strict bool) []schemaFinding {
	tolerated := finding.Warning
	if strict {
		tolerated = finding.Error
	}
	var out []schemaFinding
	for _, p := range probs {
		if p.UnknownField {
			continue
		}
		if p.Keyword == "required" && len(p.Missing) > 0 {
			var bad, ok []string
			var okPtrs []string
			for i, m := range p.Missing {
				if lossy(t, m) {
					bad = append(bad, p.MissingNames[i])
				} else {
					ok = append(ok, p.MissingNames[i])
					okPtrs = append(okPtrs, m)
				}
			}
			if len(bad) > 0 {
				out = append(out, schemaFinding{p.Pointer, missingMsg(bad), finding.Error})
			}
			if len(ok) > 0 {
				out = append(out, schemaFinding{p.Pointer, missingMsg(ok) + writtenBy(t, okPtrs), tolerated})
			}
			continue
		}
		if lossy(t, p.Pointer) {
			out = append(out, schemaFinding{p.Pointer, p.Message, finding.Error})
			continue
		}
		out = append(out, schemaFinding{p.Pointer, p.Message + writtenBy(t, []string{p.Pointer}), tolerated})
	}
	return out
}

func missingMsg(names []string) string {
	if len(names) == 1 {
		return "missing required field " + names[0]
	}
	return "missing required fields " + strings.Join(names, ", ")
}

// writtenBy names the versions seen writing the fields at ptrs, e.g.
// " (written by Claude Code 1.0.0–2.1.330)"; empty when none is known.
func writtenBy(t string, ptrs []string) string {
	var first, last string
	for _, p := range ptrs {
		r, ok := schema.FieldVersions(t, dotted(p))
		if !ok {
			continue
		}
		if first == "" || ccversion.Less(r.First, first) {
			first = r.First
		}
		if last == "" || ccversion.Less(last, r.Last) {
			last = r.Last
		}
	}
	if first == "" {
		return ""
	}
	return " (written by Claude Code " + schema.Range{First: first, Last: last}.String() + ")"
}

// dotted turns a JSON pointer into the table's field path: "/message/usage"
// becomes "message.usage"; array indices end the path.
func dotted(ptr string) string {
	var parts []string
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" || strings.Trim(tok, "0123456789") == "" {
			break
		}
		parts = append(parts, tok)
	}
	return strings.Join(parts, ".")
}

// writerNote names the Claude Code version that wrote a line, for the
// unknown-type and unknown-field messages: " (written by Claude Code
// 2.1.400, newer than the 2.1.330 ccvet's schemas were checked against)".
// Empty when the line carries no version.
func writerNote(l *model.Line) string {
	v, ok := l.Root.Get("version").Str()
	if !ok || !schema.ValidVersion(v) {
		return ""
	}
	if newest := schema.NewestVersion(); newest != "" && ccversion.Less(newest, v) {
		return " (written by Claude Code " + v + ", newer than the " + newest + " ccvet's schemas were checked against)"
	}
	return " (written by Claude Code " + v + ")"
}
