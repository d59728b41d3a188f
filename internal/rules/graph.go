package rules

import (
	"github.com/ccvet/ccvet/internal/digest"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// This file holds what the conversation-graph rules share: the sets they
// look ids up in and the way their messages name entries and tools.

// inProject reports whether an entry of a transcript of p has uuid s,
// from the files' digests; f, the file asking, is looked in first.
func inProject(p *model.Project, f *model.File, s string) bool {
	if f.Digest.HasUUID(s) {
		return true
	}
	if u := projectIndex(p); u != nil {
		return u.HasUUID(s)
	}
	for _, o := range p.Files {
		if o != f && o.Digest.HasUUID(s) {
			return true
		}
	}
	return false
}

// Answered reports whether every name f.Asks resolves in the files of p,
// so that no project rule has anything to say about thin file f.
func Answered(p *model.Project, f *model.File) bool {
	for _, a := range f.Asks {
		switch a.Kind {
		case model.AskUUID:
			if !inProject(p, f, a.Name) {
				return false
			}
		case model.AskTool:
			if !toolInProject(p, a.Name) {
				return false
			}
		case model.AskSource:
			if !holdsIn(p, a.Name, a.IDs) {
				return false
			}
		case model.AskShared:
			if inFiles(p, a.Name) < 2 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// projectIndex is the union of the digests of p's files once p's rules
// have asked for names across files often (damage, many resumes): until
// then each question looks in every file, which costs no memory.
func projectIndex(p *model.Project) *digest.Digest {
	ix := p.Memo(indexKey{}, func() any { return new(projectIx) }).(*projectIx)
	if ix.union == nil {
		if ix.asked++; ix.asked <= unionAfter {
			return nil
		}
		ix.union = digest.Union(digestsOf(p))
	}
	return ix.union
}

// projectOwners says which files of p hold a uuid (their places in
// p.Files), once projectIndex has a union; nil until then.
func projectOwners(p *model.Project) *digest.Owners {
	u := projectIndex(p)
	if u == nil {
		return nil
	}
	ix := p.Memo(indexKey{}, func() any { return new(projectIx) }).(*projectIx)
	if ix.owners == nil {
		ix.owners = digest.NewOwners(u, digestsOf(p))
	}
	return ix.owners
}

// digestsOf lists the digests of p's files, in p.Files's order.
func digestsOf(p *model.Project) []*digest.Digest {
	ds := make([]*digest.Digest, len(p.Files))
	for i, f := range p.Files {
		ds[i] = f.Digest
	}
	return ds
}

type indexKey struct{}

type projectIx struct {
	asked  int
	union  *digest.Digest
	owners *digest.Owners
}

// unionAfter is how many questions across files are answered by looking
// in each file before projectIndex builds the union.
const unionAfter = 64

// toolCount is the number of tool_use blocks of recs, or of tool_result
// blocks: the size of a map by tool id.
func toolCount(recs []*entry.Record, results bool) int {
	n := 0
	for _, r := range recs {
		if results {
			n += len(r.ToolResults())
		} else {
			n += len(r.ToolUses())
		}
	}
	return n
}

// entryLabel names an entry for a message: "assistant entry 3f2a…".
func entryLabel(rec *entry.Record) string {
	t := typeLabel(rec)
	if rec.ID().IsZero() {
		return t + " entry"
	}
	return t + " entry " + rec.UUID()
}

// typeLabel is rec's entry type, or "untyped" for a line without a
// string type (a message would read "the  entry").
func typeLabel(rec *entry.Record) string {
	if rec.Type == "" {
		return "untyped"
	}
	return rec.Type
}

// toolName names a tool block for a message: "Bash tool_use toolu_01…".
func toolLabel(t entry.Tool) string {
	if t.Name() == "" {
		return "tool_use " + t.ID
	}
	return t.Name() + " tool_use " + t.ID
}

// lineRef names a line of the same file: "line 12".
func lineRef(rec *entry.Record) string { return "line " + itoa(int(rec.Line)) }

// related points at rec's line in f, at the value ptr names.
func relatedAt(f *model.File, rec *entry.Record, ptr, msg string) finding.Location {
	return finding.Location{Path: f.Path, Line: int(rec.Line), Column: f.Column(rec, ptr), Pointer: ptr, Message: msg}
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
		return !rec.ID().IsZero()
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
