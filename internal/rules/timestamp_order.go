package rules

import (
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
		last := lastByUUID(f) // the reader keeps the last line of each uuid
		for _, rec := range f.Records {
			if !rec.HasParent || rec.Timestamp == "" {
				continue
			}
			parent := last[rec.ParentUUID]
			if parent == nil || parent.Timestamp == "" {
				continue
			}
			t, err1 := time.Parse(time.RFC3339Nano, rec.Timestamp)
			pt, err2 := time.Parse(time.RFC3339Nano, parent.Timestamp)
			if err1 != nil || err2 != nil {
				continue
			}
			if d := pt.Sub(t); d > timestampTolerance {
				f.ReportRecord(r, rec, "/timestamp", finding.Finding{
					Message: entryLabel(rec) + ": timestamp " + rec.Timestamp + " is " + d.Round(time.Second).String() +
						" older than its parent's (" + entryLabel(parent) + ", " + lineRef(parent) + ", " + parent.Timestamp + ")",
					Related: []finding.Location{relatedAt(f, parent, "/timestamp", "the parent's timestamp")},
				})
			}
		}
	},
})
