package rules

import (
	"path/filepath"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// OrphanParent reports a parentUuid that names no entry of the project.
var OrphanParent = register(&Rule{
	ID:       "orphan-parent",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "`parentUuid` names an entry found in no transcript of the project",
	Why: "On resume Claude Code rebuilds the conversation by following parentUuid from the newest " +
		"entry back to the start. When a parent is missing, 2.1.94 and later continue at the latest " +
		"earlier entry written at most 5 s before it (nothing lost: a warning); when there is none, " +
		"and in every older version, the walk stops there and everything before it is silently " +
		"dropped (an error): the session resumes with no memory of earlier work (issues 46603, " +
		"58554, 61188, 37437). ccvet uses the file's own timestamps, as the reader does. Healthy transcripts never have one: a session start, " +
		"a compaction boundary and a subagent's first entry have a null parent, and old resumes or " +
		"forks name parents in another transcript of the same project folder, which ccvet looks in. " +
		"A subagent transcript whose session transcript is missing gets one orphan-subagent finding " +
		"instead: its first entries point into the missing file by design. So does the first entry " +
		"of an old resume or a fork, into the session it continues: when that transcript is gone " +
		"(deleted by cleanup, or left out of a copy), the reader still starts at that entry and " +
		"loses nothing of the file (a warning).",
	Bad:  `{"parentUuid":"6e0c1f4e-…(deleted line)","type":"user","uuid":"…",…}`,
	Good: `{"parentUuid":"a05b7d2e-…(the previous entry's uuid)","type":"user","uuid":"…",…}`,
	Fix: "Point parentUuid at the entry that really precedes this one (usually the line above it in " +
		"the file), or restore the deleted line. The message says how much history the cut hides.",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		first := firstChainRecord(f)
		for i, rec := range f.Records {
			if !rec.HasParent || parentNearby(f.Records, i) || f.Digest.HasParentOf(rec) {
				continue
			}
			if rec != first && isChainType(rec) && rec.Type != "progress" {
				// In another transcript at best, which the reader does not
				// load: reported below whatever the other files hold.
				return true
			}
			if !f.Ask(model.Ask{Kind: model.AskUUID, Name: rec.ParentUUID()}) {
				return true
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		for _, f := range p.Files {
			if f.Thin {
				continue // every parent is in the file or in another one (Keeps, Asks)
			}
			if _, _, _, missing := subagentParentMissing(p, f); missing {
				continue // orphan-subagent says the parent session is gone; its links point there
			}
			var models []*resume.Result
			gaps := map[*resume.Result]*gapIndex{}
			var children map[entry.ID]bool
			firstChain := firstChainRecord(f)
			for i, rec := range f.Records {
				if !rec.HasParent {
					continue
				}
				if parentNearby(f.Records, i) {
					continue // in the file (see below)
				}
				elsewhere := ""
				if inProject(p, f, rec.ParentUUID()) {
					if f.Digest.HasUUID(rec.ParentUUID()) || rec == firstChain || rec.Type == "progress" {
						// In the file; or the first entry of an old resume,
						// a fork or a subagent, which names its parent
						// session's entry by design.
						continue
					}
					elsewhere = otherFileWith(p, f, rec.ParentUUID())
				}
				if rec.Type == "progress" {
					// The reader skips progress entries; a dangling one only
					// matters when entries hang below it.
					if children == nil {
						children = map[entry.ID]bool{}
						for _, o := range f.Records {
							if o.HasParent {
								children[o.ParentID()] = true
							}
						}
					}
					if !children[rec.ID()] {
						continue
					}
				}
				if models == nil {
					for _, v := range readersOf(f, f.Records) {
						models = append(models, walkOf(f, v)) // the walk's Failed, Conv and Graph are the resume's
					}
				}
				msg := entryLabel(rec) + ": parentUuid " + rec.ParentUUID() +
					" names no entry in this file or any other transcript of the project; "
				if elsewhere != "" {
					msg = entryLabel(rec) + ": parentUuid " + rec.ParentUUID() + " names no entry in this file (it is in " +
						elsewhere + ", which the reader does not load); "
				}
				fd := finding.Finding{}
				if rec == firstChain && !f.InLayout {
					// A loose file that starts mid-conversation: an excerpt
					// or a partial copy (checkpoint tools save slices).
					fd.Severity = finding.Warning
					msg += "the file starts mid-conversation (an excerpt or a partial copy?), so a resume " +
						"of it would have none of the history before this entry"
				} else {
					var outs []outcome
					for _, m := range models {
						if gaps[m] == nil {
							gaps[m] = newGapIndex(m)
						}
						outs = append(outs, gapOutcome(m, gaps[m], i))
					}
					var how string
					fd.Severity, how = verdict(outs)
					fd.Severity, how = unreadFlatAgent(f, outs, fd.Severity, how)
					if rec == firstChain && elsewhere == "" && fd.Severity == finding.Error && int(rec.Line) == i+1 {
						// The first entry of an old resume or a fork names
						// the entry of the session it continues, by design,
						// and that session's transcript is gone (cleanup
						// deletes old ones; a copy may leave it out). The
						// reader loads one file and starts here either way:
						// nothing the file holds is lost. Only where every
						// line before it is an entry: a torn line above
						// may be the parent (that loss is invalid-json's).
						fd.Severity = finding.Warning
						msg += "it is the first entry of this file's conversation: the transcript it continues is " +
							"gone (normal after cleanupPeriodDays, or left out of a copy), or the head of this file " +
							"was cut off. A resume starts here either way, without that history, and loses nothing " +
							"the file holds"
					} else {
						msg += "on resume " + how
					}
				}
				fd.Message = msg
				f.ReportRecord(r, rec, "/parentUuid", fd)
			}
		}
	},
})

// parentNearby reports whether the parent of recs[i] is the uuid of one of
// the few records before it, as it most often is: then the file holds it,
// which its digest would say after a binary search.
func parentNearby(recs []*entry.Record, i int) bool {
	p := recs[i].ParentID()
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		if recs[k].ID() == p {
			return true
		}
	}
	return false
}

// gapIndex is what gapOutcome reads of m's walk for every record it asks
// about, found once: the first bridge from each record and for each
// missing parent, and, for each side (main chain, sidechain), how many
// turns the conversation leaves out before each record. A file whose every
// parent is missing has a bridge and a finding a line.
type gapIndex struct {
	from map[int]int    // record -> its first bridge (no cycle)
	want map[string]int // missing parent -> the first bridge wanting it (no cycle)
	lost [2][]int32     // lost[side][i]: kept turns of that side before record i, off the conversation
}

func newGapIndex(m *resume.Result) *gapIndex {
	x := &gapIndex{from: map[int]int{}, want: map[string]int{}}
	if m.Conv == nil {
		return x
	}
	for k, b := range m.Conv.Bridges {
		if b.Cycle {
			continue
		}
		if _, ok := x.from[b.From]; !ok {
			x.from[b.From] = k
		}
		if _, ok := x.want[b.Want]; !ok {
			x.want[b.Want] = k
		}
	}
	recs := m.Graph.Records
	for s := range x.lost {
		x.lost[s] = make([]int32, len(recs)+1)
	}
	for j, o := range recs {
		for s := range x.lost {
			x.lost[s][j+1] = x.lost[s][j]
		}
		if m.Graph.Kept(j) && isTurn(o) && !m.Conv.On(j) {
			s := 0
			if o.IsSidechain {
				s = 1
			}
			x.lost[s][j+1]++
		}
	}
	return x
}

// gapOutcome is what the reader of m does at record i, whose parent is
// missing: bridge it, cut the history there, or not pass through it. x is
// m's gapIndex.
func gapOutcome(m *resume.Result, x *gapIndex, i int) outcome {
	v := m.Reader
	if m.Failed != "" {
		return outcome{v, finding.Error, "fails to resume (\"No conversation found\"), sending nothing"}
	}
	offBranch := outcome{v, finding.Warning, "the conversation does not pass through it (it is on a branch a resume does not pick)"}
	if m.Conv == nil {
		return offBranch
	}
	recs := m.Graph.Records
	// The first bridge from i or wanting its parent (a progress entry is
	// skipped by the reader: its child inherits the missing parent).
	k, ok := x.from[i]
	if w, okW := x.want[recs[i].ParentUUID()]; okW && (!ok || w < k) {
		k, ok = w, true
	}
	if ok {
		b := m.Conv.Bridges[k]
		before := ""
		switch {
		case b.Near < 0:
		case b.From == i:
			before = "the entry before it (" + lineRef(recs[b.Near]) + ") was written " + resume.Millis(b.Gap) + " earlier"
		default:
			// The reader skips a progress entry: the gap it measures is
			// from the entry below it that inherits the missing parent.
			before = lineRef(recs[b.From]) + ", read in its place as the reader skips progress entries, was written " +
				resume.Millis(b.Gap) + " after the entry before it (" + lineRef(recs[b.Near]) + ")"
			if recs[i].Type != "progress" {
				before = lineRef(recs[b.From]) + ", which names the same missing parent, was written " +
					resume.Millis(b.Gap) + " after the entry before it (" + lineRef(recs[b.Near]) + ")"
			}
		}
		if b.To >= 0 {
			return outcome{v, finding.Warning, "bridge the gap, since " + before + ", within the 5 s the reader bridges (nothing lost)"}
		}
		side := 0
		if recs[i].IsSidechain {
			side = 1
		}
		lost := int(x.lost[side][i]) // records in file order: an earlier line is an earlier record
		why := "cut the history here"
		switch {
		case !resume.ProfileOf(v).Bridge:
			why += " (no 5 s bridge before 2.1.94)"
		case b.Near >= 0:
			why += " (" + before + ", more than the 5 s the reader bridges)"
		default:
			why += " (no earlier entry with a usable timestamp to bridge to)"
		}
		if lost > 0 {
			verb := " of this file are lost"
			if lost == 1 {
				verb = " of this file is lost"
			}
			why += ": " + plural(lost, "earlier user/assistant entry", "earlier user/assistant entries") + verb
		}
		return outcome{v, finding.Error, why}
	}
	return offBranch
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

// otherFileWith names the other transcript of p that holds uuid (its base
// name), or "another transcript of the project".
func otherFileWith(p *model.Project, f *model.File, uuid string) string {
	if ow := projectOwners(p); ow != nil {
		for _, i := range ow.Of(uuid) {
			if o := p.Files[i]; o != f {
				return filepath.Base(o.Path)
			}
		}
		return "another transcript of the project"
	}
	for _, o := range p.Files {
		if o != f && o.Digest.HasUUID(uuid) {
			return filepath.Base(o.Path)
		}
	}
	return "another transcript of the project"
}
