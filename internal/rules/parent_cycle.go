package rules

import (
	"strings"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// ParentCycle reports parentUuid links that loop.
var ParentCycle = register(&Rule{
	ID:       "parent-cycle",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "following `parentUuid` from an entry comes back to it",
	Why: "A conversation is a tree: parentUuid always points to an older entry. When the links loop " +
		"Claude Code detects the repeat and stops (\"Cycle detected in parentUuid chain … Returning " +
		"partial transcript\"), so a resume loses everything the loop hides, and the search for the " +
		"session's leaves cannot see past it either. Only hand edits and broken tools make loops.",
	Bad:  `line 1: {"parentUuid":"c…","uuid":"a…",…}  line 2: {"parentUuid":"a…","uuid":"b…",…}  line 3: {"parentUuid":"b…","uuid":"c…",…}`,
	Good: `line 1: {"parentUuid":null,"uuid":"a…",…}  line 2: {"parentUuid":"a…","uuid":"b…",…}  line 3: {"parentUuid":"b…","uuid":"c…",…}`,
	Fix:  "Find the entry of the loop whose parentUuid points forward (usually the first line) and point it at the entry really before it, or set it to null if it starts the session.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		last := lastByUUID(f) // the reader keeps the last line of each uuid
		const (
			unseen = iota
			onPath
			done
		)
		state := map[string]int{}
		for _, start := range f.Records {
			if start.UUID == "" || last[start.UUID] != start || state[start.UUID] != unseen {
				continue
			}
			var path []*entry.Record
			cur := start
			for cur != nil && state[cur.UUID] == unseen {
				state[cur.UUID] = onPath
				path = append(path, cur)
				if !cur.HasParent {
					cur = nil
					break
				}
				cur = last[cur.ParentUUID]
			}
			if cur != nil && state[cur.UUID] == onPath {
				// The loop is the tail of path from cur on.
				k := 0
				for path[k] != cur {
					k++
				}
				loop := path[k:]
				first := loop[0]
				for _, rec := range loop {
					if rec.Line < first.Line {
						first = rec
					}
				}
				var ids []string
				at := 0
				for i, rec := range loop {
					if rec == first {
						at = i
					}
				}
				for i := 0; i <= len(loop); i++ {
					ids = append(ids, loop[(at+i)%len(loop)].UUID)
				}
				var rel []finding.Location
				for i := 1; i < len(loop) && len(rel) < 5; i++ {
					rec := loop[(at+i)%len(loop)]
					rel = append(rel, relatedAt(f, rec, "/parentUuid", "in the loop"))
				}
				msg := entryLabel(first) + ": following parentUuid loops back here after " +
					plural(len(loop), "entry", "entries") + " (" + strings.Join(ids, " → ") +
					"); the reader stops at the repeat and loses the history behind it"
				if len(loop) == 1 {
					msg = entryLabel(first) + ": parentUuid names the entry itself; the reader stops there"
				}
				f.ReportRecord(r, first, "/parentUuid", finding.Finding{Message: msg, Related: rel})
			}
			for _, rec := range path {
				state[rec.UUID] = done
			}
		}
	},
})
