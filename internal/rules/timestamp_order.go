package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"time"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// timestampTolerance is how much older than its parent an entry may be.
const timestampTolerance = time.Minute

// TimestampOrder reports an entry much older than its parent.
var TimestampOrder = register(&Rule{
	ID:       "timestamp-order",
	Severity: finding.Warning,
	Enabled:  false,
	Summary:  "an entry's `timestamp` is more than a minute older than its parent's",
	Why: "A reply cannot precede what it answers, and the reader picks the leaf of a resume by the " +
		"latest timestamp, so a clock jump or a re-serialized timestamp can make it resume from the " +
		"wrong entry. Small inversions are normal (a /compact's own lines are written after the " +
		"boundary with earlier times; 54 of 293 corpus files have some), hence the tolerance and " +
		"why the rule is off by default.",
	Bad:  `line 4: {"uuid":"b…","parentUuid":"a…","timestamp":"2025-10-01T09:00:00Z"}  (parent a… at 2025-10-01T10:00:00Z)`,
	Good: `line 4: {"uuid":"b…","parentUuid":"a…","timestamp":"2025-10-01T10:00:05Z"}`,
	Fix:  "Usually nothing: check the machine's clock, or the tool that rewrote the timestamps.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		g := f.Graph() // the reader keeps the last line of each uuid: g has their index
		for i, rec := range f.Records {
			if !rec.HasTimestamp() {
				continue
			}
			k := g.LastParent(i)
			if k < 0 || !f.Records[k].HasTimestamp() {
				continue
			}
			parent := f.Records[k]
			if parent.ISOTimestamp() && rec.ISOTimestamp() && entry.CompareTimestamps(parent, rec) <= 0 {
				continue // not older than its parent, by their milliseconds
			}
			ts, pts := rec.Timestamp(), parent.Timestamp()
			if canonicalTime(pts) && canonicalTime(ts) && pts <= ts {
				continue // not older than its parent: no need to parse
			}
			t, err1 := time.Parse(time.RFC3339Nano, ts)
			pt, err2 := time.Parse(time.RFC3339Nano, pts)
			if err1 != nil || err2 != nil {
				continue
			}
			if d := pt.Sub(t); d > timestampTolerance {
				f.ReportRecord(r, rec, "/timestamp", finding.Finding{
					Message: entryLabel(rec) + ": timestamp " + ts + " is " + d.Round(time.Second).String() +
						" older than its parent's (" + entryLabel(parent) + ", " + lineRef(parent) + ", " + pts + ")",
					Related: []finding.Location{relatedAt(f, parent, "/timestamp", "the parent's timestamp")},
				})
			}
		}
	},
})

// canonicalTime reports whether ts has the form Claude Code writes,
// 2006-01-02T15:04:05.000Z: of two such strings the later time sorts
// last, and one that does not parse is only skipped by the rule either way.
func canonicalTime(ts string) bool {
	if len(ts) != 24 || ts[23] != 'Z' {
		return false
	}
	for i := 0; i < 23; i++ {
		c := ts[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		case 19:
			if c != '.' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}
