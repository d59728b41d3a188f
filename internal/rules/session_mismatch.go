package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// SessionMismatch reports entries whose sessionId the file's name and
// history do not explain.
var SessionMismatch = register(&Rule{
	ID:       "session-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "an entry's `sessionId` is neither the transcript's own session nor one its resume history explains",
	Why: "Claude Code finds a session by its file name and keys titles, tags and content replacements " +
		"by the sessionId of the entries. A subagent transcript carries its parent session's id; a " +
		"main transcript carries its own, and a resumed one may hold an earlier session's entries as " +
		"one block (copied history, or the lineage of a resume) or share them with another transcript " +
		"of the project (fork). Entries of another session interleaved with the file's own, or a " +
		"subagent entry naming a different parent, mean two processes wrote one file or a file was " +
		"pieced together by hand: tools that filter by sessionId then show a truncated conversation.",
	Bad:  `…/3f1c….jsonl: {"sessionId":"3f1c…",…} {"sessionId":"77ab…",…} {"sessionId":"3f1c…",…}`,
	Good: `…/3f1c….jsonl: {"sessionId":"3f1c…",…} {"sessionId":"3f1c…",…}`,
	Fix:  "Split the entries of the other session into their own transcript, or correct sessionId.",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		if !layout.IsUUID(f.SessionID) {
			return false
		}
		for _, rec := range f.Records {
			if rec.SessionID == "" || rec.SessionID == f.SessionID {
				continue
			}
			if f.Kind == layout.Subagent {
				if isChainType(rec) {
					return true
				}
				continue
			}
			// A main transcript's session in a layout is one the check
			// below skips too (it counts every main transcript's).
			if !p.HasLayoutSession(rec.SessionID) {
				return keepsRuns(p, f)
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		sessions := map[string]bool{} // sessions that have a main transcript here
		for _, f := range p.Files {
			if f.Kind == layout.Transcript && layout.IsUUID(f.SessionID) {
				sessions[f.SessionID] = true
			}
		}
		for _, f := range p.Files {
			if !layout.IsUUID(f.SessionID) {
				continue // no session id in the name (exports, checkpoint copies, fixtures)
			}
			if f.Thin {
				continue // no entry of another session that is not explained (Keeps)
			}
			if f.Kind == layout.Subagent {
				for _, rec := range f.Records {
					if rec.SessionID != "" && rec.SessionID != f.SessionID && isChainType(rec) {
						f.ReportRecord(r, rec, "/sessionId", finding.Finding{Message: entryLabel(rec) + ": sessionId " +
							quote(rec.SessionID) + " in a subagent transcript of session " + f.SessionID +
							" (from its folder); a subagent's entries carry its parent session's id"})
					}
				}
				continue
			}
			runs, order, ownFirst, ownLast := sessionRuns(f)
			own := ownFirst > 0
			if !own && continuesElsewhere(f) {
				// Claude Code 1.0 continued a session in a new file whose entries
				// all keep the old session id, the first one parented to the old
				// file's last entry: read without that file (a loose copy, standard
				// input), orphan-parent already says the history is elsewhere.
				continue
			}
			for _, sid := range order {
				if sid == f.SessionID || sessions[sid] {
					continue
				}
				for _, ru := range runs[sid] {
					if own && (int(ru.first.Line) < ownFirst || int(ru.first.Line) > ownLast) {
						continue // before or after the file's own entries: copied history or a resume's lineage
					}
					if !ru.first.ID().IsZero() && inFiles(p, ru.first.UUID()) > 1 {
						continue // shared with another transcript: a fork or resume copy
					}
					head := entryLabel(ru.first) + ": sessionId " + quote(sid) + " is not this transcript's session (" +
						f.SessionID + ")"
					run := ""
					if ru.n > 1 {
						run = "; " + itoa(ru.n) + " consecutive entries carry it"
					}
					tail := ", between entries of the file's own session: two sessions wrote this file, or it was pieced together"
					if !own {
						tail = "; no entry carries the file's own session id: a transcript renamed or copied by hand?"
					}
					// A run the file ends with grows as entries are
					// appended, and its count shows from 2 on: the Key
					// leaves it out, so a baseline keeps matching.
					f.ReportRecord(r, ru.first, "/sessionId", finding.Finding{Message: head + run + tail,
						Key: finding.WithoutNumbers(head + tail)})
					if !own {
						break // once is enough when no entry is the file's own
					}
				}
			}
		}
	},
})

// continuesElsewhere reports whether the first conversation entry of f
// names a parent that is not in f: the file continues another transcript.
func continuesElsewhere(f *model.File) bool {
	first := firstChainRecord(f)
	if first == nil || !first.HasParent || first.ParentID().IsZero() {
		return false
	}
	for _, rec := range f.Records {
		if rec.ID() == first.ParentID() {
			return false
		}
	}
	return true
}

// inFiles counts the files of p (up to 2) with an entry whose uuid is s.
func inFiles(p *model.Project, s string) int {
	if ow := projectOwners(p); ow != nil {
		return min(len(ow.Of(s)), 2)
	}
	n := 0
	for _, o := range p.Files {
		if o.Digest.HasUUID(s) {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// sessionRun is a run of consecutive entries of a file with one sessionId.
type sessionRun struct {
	first *entry.Record
	n     int
}

// sessionRuns gives the runs of f's entries by session id, the session ids
// in the order they first appear, and the lines where the file's own
// conversation entries start and end (0 when it has none).
func sessionRuns(f *model.File) (runs map[string][]*sessionRun, order []string, ownFirst, ownLast int) {
	runs = map[string][]*sessionRun{}
	var cur *sessionRun
	curID := ""
	for _, rec := range f.Records {
		if rec.SessionID == "" {
			continue
		}
		if rec.SessionID == f.SessionID && isChainType(rec) {
			// Only conversation entries: metadata written when a fork
			// starts (2.0.76: a queue-operation) precedes the copied history.
			if ownFirst == 0 {
				ownFirst = int(rec.Line)
			}
			ownLast = int(rec.Line)
		}
		if cur != nil && rec.SessionID == curID {
			cur.n++
			continue
		}
		cur, curID = &sessionRun{first: rec, n: 1}, rec.SessionID
		if _, ok := runs[curID]; !ok {
			order = append(order, curID)
		}
		runs[curID] = append(runs[curID], cur)
	}
	return runs, order, ownFirst, ownLast
}

// keepsRuns is the Keeps of a main transcript with entries of a session
// that has no transcript in the layout: the runs the check would look at
// ask that their first entry be in another file too (a fork or resume
// copy); one with no uuid keeps the file whole.
func keepsRuns(p *model.Project, f *model.File) bool {
	runs, order, ownFirst, ownLast := sessionRuns(f)
	own := ownFirst > 0
	if !own && continuesElsewhere(f) {
		return false
	}
	for _, sid := range order {
		if sid == f.SessionID || p.HasLayoutSession(sid) {
			continue
		}
		for _, ru := range runs[sid] {
			if own && (int(ru.first.Line) < ownFirst || int(ru.first.Line) > ownLast) {
				continue
			}
			if ru.first.ID().IsZero() || !f.Ask(model.Ask{Kind: model.AskShared, Name: ru.first.UUID()}) {
				return true
			}
		}
	}
	return false
}
