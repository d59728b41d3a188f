package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// This file holds what the conversation-graph rules share: the sets they
// look ids up in and the way their messages name entries and tools.

// projectUUIDs is every uuid held by an entry of any transcript of p.
func projectUUIDs(p *model.Project) map[string]struct{} {
	n := 0
	for _, f := range p.Files {
		n += len(f.Records)
	}
	set := make(map[string]struct{}, n)
	for _, f := range p.Files {
		for _, rec := range f.Records {
			if rec.UUID != "" {
				set[rec.UUID] = struct{}{}
			}
		}
	}
	return set
}

// toolCount is the number of tool_use blocks of recs, or of tool_result
// blocks: the size of a map by tool id.
func toolCount(recs []*entry.Record, results bool) int {
	n := 0
	for _, r := range recs {
		if results {
			n += len(r.ToolResults)
		} else {
			n += len(r.ToolUses)
		}
	}
	return n
}

// entryLabel names an entry for a message: "assistant entry 3f2a…".
func entryLabel(rec *entry.Record) string {
	t := rec.Type
	if t == "" {
		t = "untyped"
	}
	if rec.UUID == "" {
		return t + " entry"
	}
	return t + " entry " + rec.UUID
}

// toolName names a tool block for a message: "Bash tool_use toolu_01…".
func toolLabel(t entry.Tool) string {
	if t.Name == "" {
		return "tool_use " + t.ID
	}
	return t.Name + " tool_use " + t.ID
}

// lineRef names a line of the same file: "line 12".
func lineRef(rec *entry.Record) string { return "line " + itoa(rec.Line) }

// related points at rec's line in f, at the value ptr names.
func relatedAt(f *model.File, rec *entry.Record, ptr, msg string) finding.Location {
	return finding.Location{Path: f.Path, Line: rec.Line, Column: f.Column(rec, ptr), Pointer: ptr, Message: msg}
}

// blockPtr is the JSON pointer of a content block's field.
func blockPtr(block int, field string) string {
	return "/message/content/" + itoa(block) + "/" + field
}

// isTurn reports whether rec is a user or assistant entry: a turn of the
// conversation, as opposed to the system, attachment and progress entries the
// reader passes through.
func isTurn(rec *entry.Record) bool { return rec.Type == "user" || rec.Type == "assistant" }

// isChainType reports whether rec is one of the entry types that carry the
// conversation's parentUuid chain.
func isChainType(rec *entry.Record) bool {
	switch rec.Type {
	case "user", "assistant", "system", "attachment", "progress":
		return rec.UUID != ""
	}
	return false
}

// agentFileLooksLoose reports whether every chain entry of f is a sidechain
// entry of one agent: a subagent transcript saved under another name.
func agentFileLooksLoose(f *model.File) bool {
	agent, n := "", 0
	for _, rec := range f.Records {
		if !isChainType(rec) {
			continue
		}
		if !rec.IsSidechain || rec.AgentID == "" || (agent != "" && rec.AgentID != agent) {
			return false
		}
		agent = rec.AgentID
		n++
	}
	return n > 0
}

// joinIDs lists a few ids.
