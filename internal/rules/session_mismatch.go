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
				return true
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
			// Runs of consecutive entries with one sessionId, and where the
			// file's own entries start and end.
			type run struct {
				first *entry.Record
				n     int
			}
			runs := map[string][]*run{}
			var order []string
			var cur *run
			curID := ""
			ownFirst, ownLast := 0, 0
			for _, rec := range f.Records {
				if rec.SessionID == "" {
					continue
				}
				if rec.SessionID == f.SessionID && isChainType(rec) {
					// Only conversation entries: metadata written when a fork
					// starts (2.0.76: a queue-operation) precedes the copied history.
					if ownFirst == 0 {
						ownFirst = rec.Line
					}
					ownLast = rec.Line
				}
				if cur != nil && rec.SessionID == curID {
					cur.n++
					continue
				}
				cur, curID = &run{first: rec, n: 1}, rec.SessionID
				if _, ok := runs[curID]; !ok {
					order = append(order, curID)
				}
				runs[curID] = append(runs[curID], cur)
			}
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
					if own && (ru.first.Line < ownFirst || ru.first.Line > ownLast) {
						continue // before or after the file's own entries: copied history or a resume's lineage
					}
					if ru.first.UUID != "" && inFiles(p, ru.first.UUID) > 1 {
						continue // shared with another transcript: a fork or resume copy
					}
					msg := entryLabel(ru.first) + ": sessionId " + quote(sid) + " is not this transcript's session (" +
						f.SessionID + ")"
					if ru.n > 1 {
						msg += "; " + itoa(ru.n) + " consecutive entries carry it"
					}
					if !own {
						msg += "; no entry carries the file's own session id: a transcript renamed or copied by hand?"
					} else {
						msg += ", between entries of the file's own session: two sessions wrote this file, or it was pieced together"
					}
					f.ReportRecord(r, ru.first, "/sessionId", finding.Finding{Message: msg})
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
	if first == nil || !first.HasParent || first.ParentUUID == "" {
		return false
	}
	for _, rec := range f.Records {
		if rec.UUID == first.ParentUUID {
			return false
		}
	}
	return true
}

// inFiles counts the files of p (up to 2) with an entry whose uuid is s.
func inFiles(p *model.Project, s string) int {
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
