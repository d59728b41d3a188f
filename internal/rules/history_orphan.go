package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// HistoryOrphan notes history.jsonl prompts whose session has no transcript.
var HistoryOrphan = register(&Rule{
	ID:       "history-orphan",
	Severity: finding.Note,
	Enabled:  true,
	Summary:  "history.jsonl names a session that has no transcript under projects/",
	Why: "history.jsonl keeps every prompt for the up-arrow and Ctrl-R recall, with the session it was " +
		"typed in. When that session's transcript is gone the prompt is still recalled, but the " +
		"conversation it belonged to cannot be resumed. This is normal: cleanup deletes transcripts " +
		"after cleanupPeriodDays (30 by default) and never trims history.jsonl, so it is a note; it " +
		"matters when a transcript you expect is missing. Reported once per session, at its first line, " +
		"and only when the data root holding history.jsonl and projects/ is among the scanned paths.",
	Bad:  `{"display":"fix the tests","timestamp":1765935954080,"project":"/home/me/app","sessionId":"1111…"}` + "\nwith no projects/*/1111….jsonl",
	Good: "the same line with projects/-home-me-app/1111….jsonl present",
	Fix:  "Nothing to repair, unless the transcript should be there: restore it from a copy of the store.",
	Line: func(r *Rule, l *model.Line) { collectHistoryRef(l) },
	Store: func(r *Rule, s *model.Store) {
		scanned := map[string]bool{}
		for _, root := range s.Roots {
			if root.Dir != "" && root.Projects != "" {
				scanned[root.Dir] = true
			}
		}
		known := map[string]map[string]bool{} // data root -> session ids with a transcript
		for _, f := range s.Files {
			if !f.Kind.IsTranscript() || f.Root == "" {
				continue
			}
			m := known[f.Root]
			if m == nil {
				m = map[string]bool{}
				known[f.Root] = m
			}
			if f.Kind == layout.Transcript && f.SessionID != "" {
				m[f.SessionID] = true
			}
			if f.Kind == layout.Transcript {
				for _, sid := range f.Sessions {
					m[sid] = true // resumed and forked copies carry earlier ids
				}
			}
		}
		for _, f := range s.Files {
			if f.Kind != layout.History || f.Root == "" || !scanned[f.Root] {
				continue
			}
			count := map[string]int{}
			for _, h := range f.History {
				count[h.SessionID]++
			}
			done := map[string]bool{}
			for _, h := range f.History {
				if known[f.Root][h.SessionID] || done[h.SessionID] {
					continue
				}
				done[h.SessionID] = true
				msg := func(n int) string {
					return "session " + quote(h.SessionID) + " (" + plural(n, "prompt", "prompts") +
						" in this file) has no transcript under projects/: the prompts can be recalled but " +
						"the conversation cannot be resumed (normal after cleanupPeriodDays)"
				}
				fd := recordFinding(f, historyRecord(h), "/sessionId", msg(count[h.SessionID]))
				// The count grows as prompts are appended: from "1 prompt"
				// to "2 prompts" a baseline keeps matching.
				fd.Key = finding.WithoutNumbers(msg(0))
				s.Emit(r, fd)
			}
		}
	},
})
