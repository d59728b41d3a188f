package rules

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// DuplicateUUID reports a uuid held by two lines of one transcript.
var DuplicateUUID = register(&Rule{
	ID:       "duplicate-uuid",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "two lines of one transcript carry the same `uuid`",
	Why: "Claude Code loads a transcript into a map by uuid, so the last line with a uuid silently " +
		"replaces the earlier one, and every entry parented to the earlier line now hangs off the " +
		"later one. An exact repeat of a line (issue 5034: stream-json input wrote the history again " +
		"on every message; Claude Code 2.1.14 also wrote an entry again with its keys in another " +
		"order) only bloats the file and is a warning; a different entry reusing a uuid " +
		"loses one of the two entries and can re-route the conversation on resume (issues 66454, " +
		"66947), so it is an error. The same uuid in two files is normal: `--fork-session` and old " +
		"resumes copy entries into a new file.",
	Bad: `line 7: {"parentUuid":"…","type":"assistant","uuid":"4be3…","message":{"content":[{"type":"text","text":"Done."}]}}` + "\n" +
		`line 9: {"parentUuid":"…","type":"user","uuid":"4be3…","message":{"content":"next"}}`,
	Good: `line 9: {"parentUuid":"4be3…","type":"user","uuid":"c81d…","message":{"content":"next"}}`,
	Fix: "Delete the repeated line when it is an exact copy. Otherwise give one of the entries a fresh " +
		"uuid and update the parentUuid of the entries that meant it.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		g := f.Graph() // its index of the first line of each uuid
		if g.Repeats() == 0 {
			return
		}
		var dups, firsts []int // each repeat, and the first line of its uuid
		for i, rec := range f.Records {
			if g.IsRepeat(i) {
				dups, firsts = append(dups, i), append(firsts, g.FirstWithID(rec.ID()))
			}
		}
		if len(dups) == 0 {
			return
		}
		exact := exactRepeats(f, dups, firsts)
		values := &lineMemo[any]{} // the first line of a uuid is compared with each of its repeats
		for k, i := range dups {
			rec, prev := f.Records[i], f.Records[firsts[k]]
			fd := finding.Finding{Related: []finding.Location{relatedAt(f, prev, "/uuid", "first line with this uuid")}}
			if exact[k] {
				fd.Severity = finding.Warning
				fd.Message = "this line repeats " + lineRef(prev) + " exactly (uuid " + rec.UUID() +
					"); the reader keeps one copy, the repeat only bloats the file"
			} else if sameEntry(f, values, prev, rec) {
				fd.Severity = finding.Warning
				fd.Message = "this line repeats " + lineRef(prev) + " with its keys in another order (the same entry, uuid " +
					rec.UUID() + "); the reader keeps one copy, the repeat only bloats the file"
			} else {
				fd.Severity = finding.Error
				fd.Message = entryLabel(rec) + " reuses the uuid of the " + typeLabel(prev) + " entry on " +
					lineRef(prev) + "; the reader keeps only this later line and drops the earlier entry"
			}
			f.ReportRecord(r, rec, "/uuid", fd)
		}
	},
})

// exactRepeats reports, for each repeat dups[k], whether its line is byte
// for byte the line of firsts[k]: their hashes, the lines read again (only
// those of a uuid seen twice: healthy files have none).
func exactRepeats(f *model.File, dups, firsts []int) []bool {
	idx := slices.Concat(dups, firsts)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	offs := make([]int64, len(idx))
	for k, i := range idx {
		offs[k] = f.Records[i].Offset
	}
	hs, ok := f.LineHashes(offs)
	at := func(i int) (uint64, bool) {
		k, _ := slices.BinarySearch(idx, i)
		return hs[k], ok[k]
	}
	exact := make([]bool, len(dups))
	for k := range dups {
		h1, ok1 := at(dups[k])
		h2, ok2 := at(firsts[k])
		exact[k] = ok1 && ok2 && h1 == h2
	}
	return exact
}

// sameEntry reports whether the lines of two records hold the same JSON
// value (objects compared member by member, whatever their order), each
// line decoded once among the last few (values).
func sameEntry(f *model.File, values *lineMemo[any], a, b *entry.Record) bool {
	value := func(r *entry.Record) any {
		v, _ := values.get(r.Offset, func() (any, bool) {
			raw := f.LineBytes(r)
			if raw == nil {
				return nil, false
			}
			return decodeAny(raw), true
		})
		return v
	}
	va, vb := value(a), value(b)
	return va != nil && vb != nil && reflect.DeepEqual(va, vb)
}

func decodeAny(raw []byte) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}
