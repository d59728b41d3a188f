package rules

import (
	"testing"
	"time"
)

// TestCanonicalTime: two timestamps canonicalTime accepts sort as their
// times do, so timestamp-order may skip parsing a child not older than its
// parent.
func TestCanonicalTime(t *testing.T) {
	for _, c := range []struct {
		ts   string
		want bool
	}{
		{"2025-10-01T10:00:00.000Z", true},
		{"2025-10-01T10:00:00Z", false},
		{"2025-10-01T10:00:00.000+00:00", false},
		{"2025-10-01 10:00:00.000Z", false},
		{"2025-10-01T10:00:00.000z", false},
		{"2025-1a-01T10:00:00.000Z", false},
		{"", false},
	} {
		if got := canonicalTime(c.ts); got != c.want {
			t.Errorf("canonicalTime(%q) = %v", c.ts, got)
		}
	}
	ts := []string{"2024-12-31T23:59:59.999Z", "2025-01-01T00:00:00.000Z", "2025-01-01T00:00:00.001Z",
		"2025-02-01T00:00:00.000Z", "2025-10-01T09:59:59.000Z", "2025-10-01T10:00:00.000Z", "2026-01-01T00:00:00.000Z"}
	for _, a := range ts {
		for _, b := range ts {
			ta, _ := time.Parse(time.RFC3339Nano, a)
			tb, _ := time.Parse(time.RFC3339Nano, b)
			if (a <= b) != !ta.After(tb) {
				t.Errorf("%s <= %s is %v, but their times say otherwise", a, b, a <= b)
			}
		}
	}
}
