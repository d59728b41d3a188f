package entry

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// timestamps is a mix of what Claude Code writes, edge dates, and what
// it does not write (other precisions, offsets, dates that do not exist,
// not dates at all).
func timestamps() []string {
	out := []string{
		"", "2025-06-01T12:34:56.789Z", "2025-06-01T12:34:56.789Z", "1970-01-01T00:00:00.000Z",
		"0000-01-01T00:00:00.000Z", "0000-02-29T23:59:59.999Z", "9999-12-31T23:59:59.999Z",
		"1969-12-31T23:59:59.999Z", "2024-02-29T00:00:00.000Z", "2023-02-29T00:00:00.000Z",
		"2100-02-29T00:00:00.000Z", "2000-02-29T00:00:00.000Z", "2025-04-31T00:00:00.000Z",
		"2025-13-01T00:00:00.000Z", "2025-00-10T00:00:00.000Z", "2025-06-00T00:00:00.000Z",
		"2025-06-01T24:00:00.000Z", "2025-06-01T23:60:00.000Z", "2025-06-01T23:59:60.000Z",
		"2025-06-01T12:34:56Z", "2025-06-01T12:34:56.789123Z", "2025-06-01T12:34:56.789+00:00",
		"2025-06-01t12:34:56.789Z", "2025-06-01T12:34:56.789z", "2025-06-01 12:34:56.789Z",
		"2025-6-01T12:34:56.789Z", "+2025-06-01T12:34:56.789Z", "１０２５-06-01T12:34:56.789Z",
		"not a date", "1748781296789", "2025-06-01T12:34:56.7890Z",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		t := time.UnixMilli(r.Int64N(253402300800000+62167219200000) - 62167219200000).UTC()
		out = append(out, t.Format(isoLayout))
	}
	return out
}

// TestTimestampEncoding: what a record gives back is the string it was
// given; its milliseconds are time.Parse's; it is kept in 8 bytes exactly
// when written as toISOString writes it.
func TestTimestampEncoding(t *testing.T) {
	for _, s := range timestamps() {
		r := Ref(1, 0)
		r.SetTimestamp(s)
		if got := r.Timestamp(); got != s {
			t.Errorf("%q: Timestamp() = %q", s, got)
		}
		if r.HasTimestamp() != (s != "") {
			t.Errorf("%q: HasTimestamp() = %v", s, r.HasTimestamp())
		}
		want, err := time.Parse(time.RFC3339Nano, s)
		ms, ok := r.TimestampMillis()
		if ok != (err == nil) || ok && ms != want.UnixMilli() {
			t.Errorf("%q: TimestampMillis() = %d, %v; time.Parse: %v, %v", s, ms, ok, want.UnixMilli(), err)
		}
		iso := err == nil && len(s) == 24 && want.UTC().Format(isoLayout) == s
		if r.ISOTimestamp() != iso || (r.RawTimestamp != "") == iso && s != "" {
			t.Errorf("%q: ISOTimestamp() = %v, RawTimestamp %q; want iso %v", s, r.ISOTimestamp(), r.RawTimestamp, iso)
		}
	}
	if noRare.RawTimestamp != "" {
		t.Fatal("SetTimestamp wrote the shared empty Rare")
	}
}

// TestCompareTimestamps orders as the strings do.
func TestCompareTimestamps(t *testing.T) {
	ts := timestamps()[:200]
	recs := make([]*Record, len(ts))
	for i, s := range ts {
		recs[i] = Ref(i+1, 0)
		recs[i].SetTimestamp(s)
	}
	for i := range recs {
		for j := range recs {
			if got, want := CompareTimestamps(recs[i], recs[j]), strings.Compare(ts[i], ts[j]); got != want {
				t.Fatalf("CompareTimestamps(%q, %q) = %d, want %d", ts[i], ts[j], got, want)
			}
		}
	}
}

// TestSetTimestampCopiesRare: a record's Rare is shared with others;
// SetTimestamp changes its own copy.
func TestSetTimestampCopiesRare(t *testing.T) {
	a, b := Ref(1, 0), Ref(2, 0)
	shared := &Rare{Subtype: "x", Rarer: &Rarer{}}
	a.Rare, b.Rare = shared, shared
	a.SetTimestamp("yesterday")
	if b.Timestamp() != "" || shared.RawTimestamp != "" || a.Subtype != "x" || a.Timestamp() != "yesterday" {
		t.Fatalf("a %q %q, b %q, shared %q", a.Timestamp(), a.Subtype, b.Timestamp(), shared.RawTimestamp)
	}
	a.SetTimestamp("2025-06-01T12:34:56.789Z")
	if a.RawTimestamp != "" || a.Timestamp() != "2025-06-01T12:34:56.789Z" || a.Subtype != "x" {
		t.Fatalf("a %q raw %q subtype %q", a.Timestamp(), a.RawTimestamp, a.Subtype)
	}
}

// TestRecordSize: a record, uuid and parentUuid included, fills the
// 112-byte size class, a tool block takes 24 bytes and a Rare 48 (what a
// long transcript's memory is mostly made of).
func TestRecordSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if got := unsafe.Sizeof(Record{}); got != 112 {
		t.Errorf("Record is %d bytes, want 112", got)
	}
	if got := unsafe.Sizeof(Tool{}); got != 24 {
		t.Errorf("Tool is %d bytes, want 24", got)
	}
	if got := unsafe.Sizeof(Rare{}); got != 48 {
		t.Errorf("Rare is %d bytes, want 48", got)
	}
}

// TestSetIDs: the message id's ID and a source in the written form share
// a field; a line with both, or a source in another form, keeps the
// source in a copy of its Rare.
func TestSetIDs(t *testing.T) {
	const u = "0b8ac3f2-5d1e-4c8a-9f00-1a2b3c4d5e6f"
	for _, c := range [][2]string{{"", ""}, {"m", ""}, {"", "s"}, {"m", "s"}, {"", u}, {"m", u}, {u, u}} {
		r := Ref(1, 0)
		r.AddTool(ToolUse("a", "", 0, false))
		r.SetIDs(c[0], c[1])
		r.AddTool(ToolResult("b", 0))
		_, written := r.WrittenSource()
		if r.MessageID() != mustID(c[0]) || r.SourceToolAssistantUUID() != c[1] || r.SourceID() != mustID(c[1]) ||
			written != (c[1] == u) || len(r.ToolUses()) != 1 || len(r.ToolResults()) != 1 {
			t.Errorf("SetIDs(%q, %q): %v %q, %d uses %d results", c[0], c[1], r.MessageID(), r.SourceToolAssistantUUID(),
				len(r.ToolUses()), len(r.ToolResults()))
		}
		r.SetIDs("", "")
		if !r.MessageID().IsZero() || r.SourceToolAssistantUUID() != "" || !r.SourceID().IsZero() {
			t.Errorf("SetIDs(\"\", \"\") after (%q, %q): %v %q", c[0], c[1], r.MessageID(), r.SourceToolAssistantUUID())
		}
	}
	if noRare.SourceAlso != "" {
		t.Fatal("SetIDs wrote the shared empty Rare")
	}
}
