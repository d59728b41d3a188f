package rules

import (
	"fmt"
	"strings"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// cycleOutcome is what the reader of m does with the loop: the walk from the
// leaf meets it and bridges it (2.1.94+, within 5 s) or stops, or never meets it.
// cycles is m's first cycle bridge from each uuid (see cycleBridges).
func cycleOutcome(m *resume.Result, cycles map[string]int, loop []*entry.Record) outcome {
	v := m.Reader
	if m.Failed != "" {
		return outcome{v, finding.Error, "fails to resume (\"No conversation found\"), sending nothing"}
	}
	if m.Conv == nil {
		return outcome{v, finding.Warning, "the conversation does not pass through the loop"}
	}
	// The first cycle bridge from an entry of the loop.
	first := -1
	for _, rec := range loop {
		if k, ok := cycles[rec.UUID()]; ok && (first < 0 || k < first) {
			first = k
		}
	}
	if first >= 0 {
		b := m.Conv.Bridges[first]
		if b.To >= 0 {
			return outcome{v, finding.Warning, "the walk leaves the loop for the latest entry written within 5 s before it (" +
				resume.Millis(b.Gap) + "), so nothing is lost"}
		}
		why := "the walk stops at the repeat and loses the history behind it"
		if !resume.ProfileOf(v).Bridge {
			why += " (no 5 s bridge before 2.1.94)"
		}
		return outcome{v, finding.Error, why}
	}
	return outcome{v, finding.Warning, "the conversation a resume rebuilds does not pass through the loop"}
}

// cycleBridges is, for each uuid, the first of m's bridges that leaves a
// loop from an entry with it: found once for all the loops of a file (a
// file of thousands of loops has a bridge for each).
func cycleBridges(m *resume.Result) map[string]int {
	out := map[string]int{}
	if m.Conv == nil {
		return out
	}
	for k, b := range m.Conv.Bridges {
		if !b.Cycle {
			continue
		}
		u := m.Graph.Records[b.From].UUID()
		if _, ok := out[u]; !ok {
			out[u] = k
		}
	}
	return out
}

// maxLoopIDs is how many uuids of a loop a parent-cycle message lists
// before it says how many more there are.
const maxLoopIDs = 10

// ParentCycle reports parentUuid links that loop.
var ParentCycle = register(&Rule{
	ID:       "parent-cycle",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "following `parentUuid` from an entry comes back to it",
	Why: "A conversation is a tree: parentUuid always points to an older entry. When the links loop " +
		"the reader detects the repeat: versions before 2.1.94 stop there, so a resume loses " +
		"everything the loop hides; 2.1.94 and later continue at the latest earlier entry written " +
		"within 5 s, and stop only when there is none. ccvet judges with the file's own timestamps. " +
		"Only hand edits and broken tools make loops.",
	Bad:  `line 1: {"parentUuid":"c…","uuid":"a…",…}  line 2: {"parentUuid":"a…","uuid":"b…",…}  line 3: {"parentUuid":"b…","uuid":"c…",…}`,
	Good: `line 1: {"parentUuid":null,"uuid":"a…",…}  line 2: {"parentUuid":"a…","uuid":"b…",…}  line 3: {"parentUuid":"b…","uuid":"c…",…}`,
	Fix:  "Find the entry of the loop whose parentUuid points forward (usually the first line) and point it at the entry really before it, or set it to null if it starts the session.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		// The reader keeps the last line of each uuid: the walk goes from
		// last line to last line, so a record index stands for its uuid.
		g := f.Graph() // its index of the last line of each uuid
		const (
			unseen = iota
			onPath
			done
		)
		state := make([]uint8, len(f.Records))
		var models []*resume.Result
		var cycles []map[string]int // each model's cycleBridges
		var path []*entry.Record
		var pathIdx []int
		for si := range f.Records {
			if !g.IsLast(si) || state[si] != unseen { // the reader's line for its uuid
				continue
			}
			path, pathIdx = path[:0], pathIdx[:0]
			ci := si
			for ci >= 0 && state[ci] == unseen {
				state[ci] = onPath
				cur := f.Records[ci]
				path, pathIdx = append(path, cur), append(pathIdx, ci)
				ci = g.LastParent(ci)
			}
			if ci >= 0 && state[ci] == onPath {
				cur := f.Records[ci]
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
					if i == maxLoopIDs && len(loop) > maxLoopIDs+1 {
						// A loop of a million entries would make a message of
						// 40 MB: the first ids, how many more, and the way back.
						ids = append(ids, fmt.Sprintf("… %d more", len(loop)-maxLoopIDs))
						i = len(loop)
					}
					ids = append(ids, loop[(at+i)%len(loop)].UUID())
				}
				var rel []finding.Location
				for i := 1; i < len(loop) && len(rel) < 5; i++ {
					rec := loop[(at+i)%len(loop)]
					rel = append(rel, relatedAt(f, rec, "/parentUuid", "in the loop"))
				}
				msg := entryLabel(first) + ": following parentUuid loops back here after " +
					plural(len(loop), "entry", "entries") + " (" + strings.Join(ids, " → ") + ")"
				if len(loop) == 1 {
					msg = entryLabel(first) + ": parentUuid names the entry itself"
				}
				if models == nil {
					for _, v := range readersOf(f, f.Records) {
						m := walkOf(f, v) // the walk's Failed, Conv and Graph are the resume's
						models, cycles = append(models, m), append(cycles, cycleBridges(m))
					}
				}
				var outs []outcome
				for k, m := range models {
					outs = append(outs, cycleOutcome(m, cycles[k], loop))
				}
				sev, how := verdict(outs)
				f.ReportRecord(r, first, "/parentUuid", finding.Finding{Severity: sev, Message: msg + "; on resume " + how, Related: rel})
			}
			for _, i := range pathIdx {
				state[i] = done
			}
		}
	},
})
