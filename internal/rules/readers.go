package rules

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// This file holds what the rules that claim what a resume does share: the
// reader versions a file is judged for, and the resume model run for each.

// writerOf is the newest Claude Code version named by recs (zero if none).
func writerOf(recs []*entry.Record) resume.Version {
	var w resume.Version
	last := ""
	for _, r := range recs {
		if r.Version == "" || r.Version == last {
			continue
		}
		last = r.Version
		if v, ok := resume.ParseVersion(r.Version); ok && w.Less(v) {
			w = v
		}
	}
	return w
}

// readersOf lists the reader versions a message about f describes:
// --reader-version alone, or the version that wrote it and each later one
// where the reader changed, up to today's. The last one is the reader f is
// judged for (see verdict). recs are f's records (or those read so far).
func readersOf(f *model.File, recs []*entry.Record) []resume.Version {
	return resume.Readers(fileWriter(f, recs), readerOverride(f))
}

// readerOverride is --reader-version (zero if none).
func readerOverride(f *model.File) resume.Version {
	var ov resume.Version
	if f.Env != nil && f.Env.ReaderVersion != "" {
		ov, _ = resume.ParseVersion(f.Env.ReaderVersion)
	}
	return ov
}

// readersOfLine is readersOf for a line check: the records read so far
// and the line's own version (the first lines come before any record).
func readersOfLine(l *model.Line) []resume.Version {
	w := fileWriter(l.File, l.File.Records)
	if v, ok := resume.ParseVersion(l.Root.Get("version").String()); ok && w.Less(v) {
		w = v
	}
	return resume.Readers(w, readerOverride(l.File))
}

// writerScan is writerOf over a file's records, carried on from where it
// stopped: the line rules ask after each line with a finding, the file
// rules after each of theirs, and the records only grow meanwhile (a
// slice that does not start with the same record, or is shorter, is read
// from its start).
type writerScan struct {
	mu    sync.Mutex
	first *entry.Record
	n     int
	w     resume.Version
	last  string
}

type writerScanKey struct{}

// fileWriter is writerOf(recs) for f's records, read once.
func fileWriter(f *model.File, recs []*entry.Record) resume.Version {
	if f == nil || f.File == nil {
		return writerOf(recs)
	}
	s := f.State(writerScanKey{}, func() any { return &writerScan{} }).(*writerScan)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(recs) < s.n || s.n > 0 && recs[0] != s.first {
		s.first, s.n, s.w, s.last = nil, 0, resume.Version{}, ""
	}
	if len(recs) > 0 {
		s.first = recs[0]
	}
	for _, r := range recs[s.n:] {
		if r.Version == "" || r.Version == s.last {
			continue
		}
		s.last = r.Version
		if v, ok := resume.ParseVersion(r.Version); ok && s.w.Less(v) {
			s.w = v
		}
	}
	s.n = len(recs)
	return s.w
}

// resumeOf runs the resume model on f's records for reader v. The result is
// kept with f's graph (it depends on nothing else): the rules that ask for
// the same reader's resume of the file share it, and must not change it.
// Readers with the same behaviours share one resume: 2.1.330 and 2.1.332
// differ only in how they send ownNote and hookText notes (WrapNotes), so
// on a file without one they share it too.
func resumeOf(f *model.File, v resume.Version) *resume.Result {
	g, p := f.Graph(), resume.ProfileOf(v)
	return g.Memo(resumeKey{p, true}, func() any {
		b := p.Behaviour()
		if b.WrapNotes && !holdsNotes(g) {
			b.WrapNotes = false
		}
		return g.Memo(behaviourKey{b, true}, func() any {
			return resume.Finish(walkIn(f, g, b), sourceOf(f, g), b)
		}).(*resume.Result).For(v)
	}).(*resume.Result)
}

// notesKey memoizes holdsNotes on a file's graph.
type notesKey struct{}

// holdsNotes reports whether one of g's records is a note a reader may
// wrap (ownNote, hookText).
func holdsNotes(g *chain.Graph) bool {
	return g.Memo(notesKey{}, func() any {
		for _, r := range g.Records {
			if r.OwnNote || r.HookText {
				return true
			}
		}
		return false
	}).(bool)
}

// walkOf is the first part of resumeOf: leaf, graph and conversation (the
// whole resume when it is known already). Kept with f's graph, like resumeOf.
func walkOf(f *model.File, v resume.Version) *resume.Result {
	g := f.Graph()
	return walkIn(f, g, resume.ProfileOf(v))
}

// walkIn is p's walk: one for the readers whose walks read the same
// behaviours (resume.Profile.WalkBehaviour), and for the two values of
// Bridge when the walk took no bridge.
func walkIn(f *model.File, g *chain.Graph, p resume.Profile) *resume.Result {
	if m, ok := g.Memoized(resumeKey{p, true}); ok {
		return m.(*resume.Result)
	}
	return g.Memo(resumeKey{p, false}, func() any {
		wp := p.WalkBehaviour()
		return g.Memo(behaviourKey{wp, false}, func() any {
			w := resume.Walk(sourceOf(f, g), wp)
			if w.Conv == nil || len(w.Conv.Bridges) == 0 {
				other := wp
				other.Bridge = !wp.Bridge
				g.Offer(behaviourKey{other, false}, w)
			}
			return w
		}).(*resume.Result).For(p.Version)
	}).(*resume.Result)
}

// resumeKey names a reader's resume (whole, or its walk only) in its graph's memo.
type resumeKey struct {
	p    resume.Profile
	full bool
}

// behaviourKey names the resume (whole, or its walk only) of a set of
// behaviours (a profile without its version) in a graph's memo.
type behaviourKey struct {
	p    resume.Profile
	full bool
}

func sourceOf(f *model.File, g *chain.Graph) resume.Source {
	src := resume.Source{Records: f.Records, Graph: g, Size: f.Bytes}
	if f.Kind == layout.Subagent && f.AgentID != "" {
		src.Agent = f.AgentID
	}
	src.AnyLeaf = f.Kind == layout.Subagent || agentFileLooksLoose(f)
	return src
}

// outcome is what one reader version does with one piece of damage.
type outcome struct {
	v    resume.Version
	sev  finding.Severity
	text string
}

// verdict joins the outcomes of the readers a message describes (in
// version order, see readersOf) into a severity and a phrase naming the
// versions: "2.1.330 and later re-attach it; 2.1.110 to before 2.1.330 drop
// the call". The severity is the last reader's: today's, or the one pinned
// by --reader-version. What older readers do only shows in the phrase.
func verdict(outs []outcome) (finding.Severity, string) {
	sev := finding.Note
	if len(outs) > 0 {
		sev = outs[len(outs)-1].sev
	}
	var parts []string
	for k := 0; k < len(outs); {
		j := k
		for j+1 < len(outs) && outs[j+1].text == outs[k].text {
			j++
		}
		var to resume.Version
		last := j+1 == len(outs)
		if !last {
			to = outs[j+1].v
		}
		from := outs[k].v
		if k == 0 && len(outs) == 1 {
			parts = append(parts, "Claude Code "+from.String()+": "+outs[k].text)
		} else {
			parts = append(parts, resume.Range(from, to, last)+": "+outs[k].text)
		}
		k = j + 1
	}
	return sev, strings.Join(parts, "; ")
}

// subagentDirSince is the first version that keeps subagent transcripts in
// <session>/subagents/; 2.0.28 to 2.1.1 wrote them flat at the project root
// (shared/notes/format.md), and later readers never open those.
var subagentDirSince = resume.Version{Major: 2, Minor: 1, Patch: 2}

// flatAgent reports whether f is a subagent transcript at the project root.
func flatAgent(f *model.File) bool {
	return f.Kind == layout.Subagent && f.InLayout &&
		!strings.Contains("/"+filepath.ToSlash(f.OSPath), "/subagents/")
}

// unreadFlatAgent lowers to a note what the chain model predicts for a
// flat subagent transcript when the reader judged (the last of outs) is
// 2.1.2 or later: that reader never opens the file, so nothing it sends is
// lost. A reader pinned before 2.1.2 keeps the verdict.
func unreadFlatAgent(f *model.File, outs []outcome, sev finding.Severity, how string) (finding.Severity, string) {
	if sev == finding.Note || len(outs) == 0 || !flatAgent(f) || outs[len(outs)-1].v.Less(subagentDirSince) {
		return sev, how
	}
	return finding.Note, how + "; but that is what a resume of this file would do, and none happens: " +
		"this subagent transcript sits at the project root, where 2.0.28 to 2.1.1 wrote them, and from " +
		"2.1.2 on Claude Code reads subagent transcripts only from <session>/subagents/, so today's reader " +
		"never opens it (nothing needs doing)"
}
