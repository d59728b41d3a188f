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

// readerUses reports whether the reader of Claude Code reads the field at
// ptr of an entry of type t when it resumes: the fields that link, order,
// split or merge the conversation, and what a content block sends. A
// problem there is a warning (the reader repairs or works around it); one
// in a field nothing reads on resume (usage, stop_reason, cwd, requestId…)
// is a note: nothing changes (an error under --strict either way).
func readerUses(t, ptr string) bool {
	switch ptr {
	case "", "/type", "/timestamp", "/isSidechain", "/sessionId", "/agentId", "/subtype", "/leafUuid",
		"/logicalParentUuid", "/isCompactSummary", "/isMeta", "/isVisibleInTranscriptOnly", "/toolUseResult",
		"/message/role", "/message/id", "/message/model":
		return true
	}
	return strings.HasPrefix(ptr, "/message/content/") || strings.HasPrefix(ptr, "/compactMetadata")
}

// thinkingSignature is the pointer of a content block's signature.
var thinkingSignature = regexp.MustCompile(`^/message/content/[0-9]+/signature$`)

// readAsEmpty reports whether a missing field at ptr reads as an empty one:
// a thinking block without a signature (model gateways write none) is sent
// as written, as with an empty signature (measured on 2.1.330, for a Claude
// and a non-Claude message.model).
func readAsEmpty(ptr string) bool { return thinkingSignature.MatchString(ptr) }

// schemaFinding is one report of the schema rule with its severity.
type schemaFinding struct {
	ptr      string
	msg      string
	severity finding.Severity
}

// judgeSchema splits the schema problems of an entry of type t into
// findings, by what the reader does: an error for a lossy shape; a warning
// naming the versions that write the field where the reader reads it and
// works around it; a note where nothing reads it on resume. Under --strict
// every problem is an error.
func judgeSchema(t string, probs []schema.Problem, strict bool) []schemaFinding {
	tolerated := func(ptr string) finding.Severity {
		switch {
		case strict:
			return finding.Error
		case readerUses(t, ptr):
			return finding.Warning
		}
		return finding.Note
	}
	var out []schemaFinding
	for _, p := range probs {
		if p.UnknownField {
			continue
		}
		if p.Keyword == "required" && len(p.Missing) > 0 {
			var bad []string
			var names [3][]string // read by the reader, read by nothing, read as empty
			var ptrs [3][]string
			for i, m := range p.Missing {
				switch {
				case lossy(t, m):
					bad = append(bad, p.MissingNames[i])
				case strict || (readerUses(t, m) && !readAsEmpty(m)): // --strict: one error for them all
					names[0], ptrs[0] = append(names[0], p.MissingNames[i]), append(ptrs[0], m)
				case readAsEmpty(m):
					names[2], ptrs[2] = append(names[2], p.MissingNames[i]), append(ptrs[2], m)
				default:
					names[1], ptrs[1] = append(names[1], p.MissingNames[i]), append(ptrs[1], m)
				}
			}
			if len(bad) > 0 {
				out = append(out, schemaFinding{p.Pointer, missingMsg(bad), finding.Error})
			}
			for k := range names[:2] {
				if len(names[k]) > 0 {
					sev := tolerated(ptrs[k][0])
					out = append(out, schemaFinding{p.Pointer, missingMsg(names[k]) + writtenBy(t, ptrs[k]) + unread(sev, len(ptrs[k])), sev})
				}
			}
			if len(names[2]) > 0 {
				out = append(out, schemaFinding{p.Pointer, missingMsg(names[2]) + writtenBy(t, ptrs[2]) +
					"; the reader takes it as empty and sends the thinking block as written (measured on 2.1.330), " +
					"so nothing changes", finding.Note})
			}
			continue
		}
		if lossy(t, p.Pointer) {
			out = append(out, schemaFinding{p.Pointer, p.Message, finding.Error})
			continue
		}
		sev := tolerated(p.Pointer)
		out = append(out, schemaFinding{p.Pointer, p.Message + writtenBy(t, []string{p.Pointer}) + unread(sev, 1), sev})
	}
	return out
}

// unread is what a note of the schema rule adds: nothing reads the n fields.
func unread(sev finding.Severity, n int) string {
	switch {
	case sev != finding.Note:
		return ""
	case n > 1:
		return "; nothing reads them on resume (data, not damage)"
	}
	return "; nothing reads it on resume (data, not damage)"
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
