package schema

import (
	"math/rand/v2"
	"testing"
)

// dateTimeSamples returns date-time candidates around the usual shape:
// each field is usually well formed, and now and then an edge value, an odd
// separator, fraction or offset.
func dateTimeSamples() []string {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(list ...string) string { return list[rng.IntN(len(list))] }
	// field returns a usual value most of the time, else an edge or odd one.
	field := func(usual string, odd ...string) string {
		if rng.IntN(12) == 0 {
			return pick(odd...)
		}
		return usual
	}
	num := func(lo, hi int) string {
		n := lo + rng.IntN(hi-lo+1)
		return string([]byte{byte('0' + n/10), byte('0' + n%10)})
	}
	out := []string{"", "2025-01-01T00:00:00Z", "2025-01-01T00:00:00", "2025-01-01 00:00:00Z",
		"2025-01-01T00:00:00.Z", "2025-01-01t00:00:00z", "2025-13-01T00:00:00Z", "+025-01-01T00:00:00Z",
		"2025-01-01T+1:00:00Z", "2025-01-01T00:00:00+01:0x", "２025-01-01T00:00:00Z", "2016-12-31T23:59:60Z",
		"2016-12-31T22:59:60-01:00", "2016-12-31T23:59:60+00:01", "2017-01-01T00:00:60+00:01"}
	for range 100000 {
		s := field(pick("2025", "2024", "2000", "1900", "0000", "9999", "2023", "1600"), "20x5", "-202", "202") +
			field("-", "/", "") + field(num(1, 12), "00", "13", "+1", "1") + field("-", ".") +
			field(num(1, 28), "00", "29", "30", "31", "32", "+1") + field("T", "t", " ") +
			field(num(0, 23), "24", "-1", "99") + field(":", ".") + field(num(0, 59), "60", "+5") + field(":", "-") +
			field(num(0, 59), "60", "61", "1") + field(pick("", ".1", ".123", ".123456789"), ".", ".x", "..1") +
			field(pick("Z", "Z", "+"+num(0, 23)+":"+num(0, 59), "-"+num(0, 23)+":"+num(0, 59)),
				"z", "", "ZZ", "+24:00", "+01:60", "+0100", "+01:00x", "+1:00", "Z ")
		out = append(out, s)
	}
	// Leap seconds: valid only at 23:59:60 UTC, whatever the offset.
	for _, hm := range []string{"23:59", "23:58", "22:59", "00:59", "00:00", "12:30", "01:00", "00:01"} {
		for _, off := range []string{"Z", "+00:00", "-00:00", "+01:00", "-01:00", "+00:01", "-00:01", "+23:59",
			"-23:59", "+12:30", "-12:30", "+01:01", "-01:01", "+23:00", "-23:00"} {
			out = append(out, "2016-12-31T"+hm+":60"+off, "2016-12-31T"+hm+":60.5"+off)
		}
	}
	return out
}

// TestDateTimeBytes: the allocation-free date-time check says what
// jsonschema/v5's format says, on every sample.
func TestDateTimeBytes(t *testing.T) {
	decided, valid := 0, 0
	for _, s := range dateTimeSamples() {
		want := dateTimeFormat(s)
		if got := isDateTimeBytes([]byte(s)); got != want {
			t.Errorf("%q: got %v, reference %v", s, got, want)
		}
		if _, d := dateTimeShape([]byte(s)); d {
			decided++
		}
		if want {
			valid++
		}
	}
	t.Logf("%d decided without the reference, %d valid", decided, valid)
	if decided == 0 || valid == 0 {
		t.Error("the samples miss the usual shape")
	}
}

// FuzzDateTime compares the date-time check with jsonschema/v5's.
//
//	go test ./internal/schema -run '^$' -fuzz FuzzDateTime -fuzztime 30s
func FuzzDateTime(f *testing.F) {
	for _, s := range dateTimeSamples()[:200] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isDateTimeBytes([]byte(s)), dateTimeFormat(s); got != want {
			t.Errorf("%q: got %v, reference %v", s, got, want)
		}
	})
}

func BenchmarkDateTime(b *testing.B) {
	s := []byte("2026-11-23T14:25:03.123Z")
	b.ReportAllocs()
	for b.Loop() {
		if !isDateTimeBytes(s) {
			b.Fatal("rejected")
		}
	}
}
