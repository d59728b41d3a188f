package rules

import (
	"reflect"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// DuplicateToolUseID reports a tool_use id used by two blocks of one transcript.
var DuplicateToolUseID = register(&Rule{
	ID:       "duplicate-tool-use-id",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "two tool_use blocks of one transcript share an `id`",
	Why: "Every tool_use id must be unique. Measured on 2.1.110, 2.1.330 and 2.1.332: when a resumed " +
		"conversation holds the same id twice, the reader sends the later call as the text " +
		"\"[Tool use interrupted]\" and its result as \"(no content)\", so no request is rejected " +
		"but the model forgets that call and what it returned; tools that pair calls with results " +
		"attach the output to the wrong call. A copy of the same call is different: Claude Code " +
		"(seen on 2.0.x) writes a branch of a transcript again below an earlier entry, with new " +
		"uuids but the same message ids, tool ids, inputs and timestamps; a real transcript with " +
		"such copies, resumed by 2.1.330, sent each call once with its result, so a call that " +
		"repeats one of the same message (same message.id, or none on both as some gateways write, " +
		"name and input) is a note; a 2.0.29 gateway transcript with such a copy without message ids, " +
		"resumed by 2.1.332, also sent the call once with its result. Within one " +
		"entry the reader sends only the first block with an id, with its first result; some model " +
		"gateways stream one call as many blocks with the same id, each of which fails validation, " +
		"so when every result for the id is an error nothing that ran is lost (a warning). An exact " +
		"repeat of the whole line is reported by duplicate-uuid instead, and copies in other files " +
		"(resume, --fork-session) are normal.",
	Bad:  `line 12: {"type":"assistant","uuid":"a…","message":{"content":[{"type":"tool_use","id":"toolu_01X…","name":"Bash",…}]}}  line 40: {"type":"assistant","uuid":"b…","message":{"content":[{"type":"tool_use","id":"toolu_01X…","name":"Read",…}]}}`,
	Good: `line 40: {"type":"assistant","uuid":"b…","message":{"content":[{"type":"tool_use","id":"toolu_01Y…","name":"Read",…}]}}`,
	Fix:  "Remove the copied assistant entry, or give the second call (and its tool_result's tool_use_id) a new id.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		type use struct {
			rec  *entry.Record
			tool entry.Tool
		}
		first := make(map[string]use, toolCount(f.Records, false))
		br, results := newBlockReads(f), &resultsOf{}
		for _, rec := range f.Records {
			for _, t := range rec.ToolUses() {
				if t.ID == "" {
					continue
				}
				prev, dup := first[t.ID]
				if !dup {
					first[t.ID] = use{rec, t}
					continue
				}
				if prev.rec != rec && !prev.rec.ID().IsZero() && prev.rec.ID() == rec.ID() {
					continue // the same entry written twice: duplicate-uuid reports it
				}
				where := lineRef(prev.rec)
				if prev.rec == rec {
					where = "block " + itoa(int(prev.tool.Block)) + " of the same entry"
				}
				related := []finding.Location{relatedAt(f, prev.rec, blockPtr(int(prev.tool.Block), "id"), "first tool_use with this id")}
				if sameCall(br, prev.rec, prev.tool, rec, t) {
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Note,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " is a copy of the " + toolNameOnly(prev.tool) +
							" call on " + where + " (the same message.id, or none, and input: a branch Claude Code wrote again); " +
							"the reader sends the call once, with its result, so nothing is lost (a real transcript " +
							"with such copies resumed by 2.1.330); only tools that pair calls with results by id " +
							"across the whole file may count it twice",
						Related: related,
					})
					continue
				}
				if prev.rec == rec {
					// Blocks of one entry: the reader keeps the first block
					// with the id and its first result, and drops the rest.
					fd := finding.Finding{
						Message: entryLabel(rec) + ": " + toolLabel(t) + " reuses the id of the " +
							toolNameOnly(prev.tool) + " call on " + where + "; on resume the reader sends only the first " +
							"block with this id, with the first result for it (a real transcript resumed by 2.1.330), so " +
							"this call and its result are left out",
						Related: related,
					}
					if n, failed := results.failed(f, br, t.ID); n > 0 && failed == n {
						allFailed := func(n int) string {
							return "; every result for this id is an error (" + plural(n, "failed result", "failed results") +
								": a gateway that split one streamed call into several blocks, and none ran), so only " +
								"failed attempts are left out and nothing needs doing"
						}
						fd.Severity = finding.Warning
						// The results grow as retries are appended: from
						// "1 failed result" to "2 failed results" a baseline
						// keeps matching.
						fd.Key = finding.WithoutNumbers(fd.Message + allFailed(0))
						fd.Message += allFailed(n)
					}
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), fd)
					continue
				}
				f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
					Message: entryLabel(rec) + ": " + toolLabel(t) + " reuses the id of the " +
						toolNameOnly(prev.tool) + " call on " + where +
						"; on resume the reader sends this later call as the text \"[Tool use interrupted]\" and its " +
						"result as \"(no content)\" (measured on 2.1.110, 2.1.330 and 2.1.332), so the call and what it returned are lost",
					Related: related,
				})
			}
		}
	},
})

// sameCall reports whether tool_use b of entry rb is a copy of tool_use a
// of another entry ra of the same assistant message: the same message.id
// (or none on both), name and input (read again from both lines, compared
// as JSON values; the names too when the records did not keep one).
func sameCall(br *blockReads, ra *entry.Record, a entry.Tool, rb *entry.Record, b entry.Tool) bool {
	// Entries written through some gateways carry no message.id: a copy
	// of one is the same call by name and input alone.
	if ra == rb || ra.MessageID() != rb.MessageID() || a.NameKept() && b.NameKept() && a.Name() != b.Name() {
		return false
	}
	na, ia, ok := br.call(ra, int(a.Block))
	if !ok {
		return false
	}
	nb, ib, ok := br.call(rb, int(b.Block))
	return ok && reflect.DeepEqual(na, nb) && reflect.DeepEqual(ia, ib)
}

// resultsOf indexes, once asked, the records holding tool_result blocks by
// the ids they answer, and keeps the counts failed gave for each id.
type resultsOf struct {
	byID   map[string][]int
	counts map[string][2]int
}

// failed counts the tool_result blocks of f for id, and how many of them
// have is_error true.
func (x *resultsOf) failed(f *model.File, br *blockReads, id string) (n, failed int) {
	if c, ok := x.counts[id]; ok {
		return c[0], c[1]
	}
	if x.byID == nil {
		x.byID, x.counts = map[string][]int{}, map[string][2]int{}
		for i, rec := range f.Records {
			for _, t := range rec.ToolResults() {
				if s := x.byID[t.ID]; len(s) == 0 || s[len(s)-1] != i {
					x.byID[t.ID] = append(s, i)
				}
			}
		}
	}
	for _, i := range x.byID[id] {
		rec := f.Records[i]
		for _, t := range rec.ToolResults() {
			if t.ID != id {
				continue
			}
			n++
			if br.isError(rec, int(t.Block)) {
				failed++
			}
		}
	}
	x.counts[id] = [2]int{n, failed}
	return n, failed
}

// toolNameOnly is the tool's name, or "tool_use" when it has none.
func toolNameOnly(t entry.Tool) string {
	if t.Name() == "" {
		return "tool_use"
	}
	return t.Name()
}
