package rules

import (
	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// OrphanParent reports a parentUuid that names no entry of the project.
var OrphanParent = register(&Rule{
	ID:       "orphan-parent",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "`parentUuid` names an entry found in no transcript of the project",
	Why: "On resume Claude Code rebuilds the conversation by following parentUuid from the newest " +
		"entry back to the start. When a parent is missing the walk stops there and everything " +
		"before it is silently dropped: the session resumes with no memory of earlier work " +
		"(issues 46603, 58554, 61188, 37437). Healthy transcripts never have one: a session start, " +
		"a compaction boundary and a subagent's first entry have a null parent, and old resumes or " +
		"forks name parents in another transcript of the same project folder, which ccvet looks in.",
	Bad:  `{"parentUuid":"6e0c1f4e-…(deleted line)","type":"user","uuid":"…",…}`,
	Good: `{"parentUuid":"a05b7d2e-…(the previous entry's uuid)","type":"user","uuid":"…",…}`,
	Fix: "Point parentUuid at the entry that really precedes this one (usually the line above it in " +
		"the file), or restore the deleted line. The message says how much history the cut hides.",
	Project: func(r *Rule, p *model.Project) {
		var known map[string]struct{}
		for _, f := range p.Files {
			has := false
			for _, rec := range f.Records {
				if rec.HasParent {
					has = true
					break
				}
			}
			if !has {
				continue
			}
			if known == nil {
				known = projectUUIDs(p)
			}
			var g *chain.Graph
			var conv *chain.Conversation
			var children map[string]bool
			firstChain := firstChainRecord(f)
			for i, rec := range f.Records {
				if !rec.HasParent {
					continue
				}
				if _, ok := known[rec.ParentUUID]; ok {
					continue
				}
				if rec.Type == "progress" {
					// The reader skips progress entries; a dangling one only
					// matters when entries hang below it.
					if children == nil {
						children = map[string]bool{}
						for _, o := range f.Records {
							if o.HasParent {
								children[o.ParentUUID] = true
							}
						}
					}
					if !children[rec.UUID] {
						continue
					}
				}
				if g == nil {
					g = chain.Build(f.Records)
					conv = g.Rebuild(fileLeaf(f, g))
				}
				msg := entryLabel(rec) + ": parentUuid " + rec.ParentUUID +
					" names no entry in this file or any other transcript of the project; "
				fd := finding.Finding{}
				cutHere := conv.Cut >= 0 && g.Parent(conv.Cut) == rec.ParentUUID
				switch {
				case rec == firstChain && !f.InLayout:
					// A loose file that starts mid-conversation: an excerpt
					// or a partial copy (checkpoint tools save slices).
					fd.Severity = finding.Warning
					msg += "the file starts mid-conversation (an excerpt or a partial copy?), so a resume " +
						"of it would have none of the history before this entry"
				case cutHere:
					lost := 0
					for j, o := range f.Records {
						if o.Line >= rec.Line {
							break
						}
						if g.Kept(j) && isTurn(o) && o.IsSidechain == rec.IsSidechain && !conv.On(j) {
							lost++
						}
					}
					msg += "a resume stops here and loses the history before it"
					if lost > 0 {
						msg += ": " + plural(lost, "earlier user/assistant entry", "earlier user/assistant entries") +
							" of this file cannot be reached from the leaf"
					}
				case conv.On(i):
					msg += "the conversation resumed from the leaf passes through it and is cut there"
				default:
					msg += "the branch through it (not the one a resume picks) is cut there"
				}
				fd.Message = msg
				f.ReportRecord(r, rec, "/parentUuid", fd)
			}
		}
	},
})

// fileLeaf is the leaf a resume of f starts from: the agent's own leaf in a
// subagent transcript, the latest main-conversation entry otherwise.
func fileLeaf(f *model.File, g *chain.Graph) int {
	if f.Kind == layout.Subagent {
		if f.AgentID != "" {
			if l := g.AgentLeaf(f.AgentID); l >= 0 {
				return l
			}
		}
		if l := g.MainLeaf(); l >= 0 {
			return l
		}
		return latestAny(g)
	}
	if l := g.MainLeaf(); l >= 0 {
		return l
	}
	return -1
}

// latestAny is the last kept message of the file, whatever it is.
func latestAny(g *chain.Graph) int {
	for i := len(g.Records) - 1; i >= 0; i-- {
		if g.Kept(i) {
			return i
		}
	}
	return -1
}

// firstChainRecord is the first entry of f that takes part in the parentUuid chain.
func firstChainRecord(f *model.File) *entry.Record {
	for _, rec := range f.Records {
		if isChainType(rec) {
			return rec
		}
	}
	return nil
}
