package entry

import (
	"cmp"
	"strings"
	"time"
)

// A record keeps its timestamp in 8 bytes (Record.ts): the milliseconds
// since 1970 of one written as JavaScript's toISOString writes them
// ("2025-06-01T12:34:56.789Z", years 0000 to 9999), which is every
// timestamp Claude Code writes; any other string is kept as written, in
// the record's Rare (RawTimestamp). The zero value is no timestamp, so
// that a Record made as a literal has none.
const (
	tsNone  int64 = 0
	tsRaw   int64 = 1       // the string is Rare.RawTimestamp
	tsShift int64 = 1 << 62 // added to the milliseconds: every one is above tsRaw
)

// isoLayout is toISOString's layout.
const isoLayout = "2006-01-02T15:04:05.000Z"

// isoMillis returns the milliseconds of b when it is written exactly as
// toISOString writes them (a date and time that exist, UTC, three digits
// of milliseconds), and false for anything else.
func isoMillis(b []byte) (int64, bool) {
	if len(b) != 24 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' ||
		b[19] != '.' || b[23] != 'Z' {
		return 0, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	s, ok6 := num(17, 2)
	ms, ok7 := num(20, 3)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 ||
		mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59 {
		return 0, false
	}
	days := daysFromCivil(y, mo, d)
	return ((days*24+int64(h))*60+int64(mi))*60000 + int64(s)*1000 + int64(ms), true
}

// daysIn is the number of days of month mo (1 to 12) of year y.
func daysIn(y, mo int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the number of days from 1970-01-01 to the date y-mo-d
// of the proleptic Gregorian calendar (negative before 1970).
func daysFromCivil(y, mo, d int) int64 {
	if mo <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (mo + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// timestampOf encodes a timestamp string as Record.ts, and says whether
// it must be kept as written (Rare.RawTimestamp).
func timestampOf(b []byte) (ts int64, raw bool) {
	if len(b) == 0 {
		return tsNone, false
	}
	if ms, ok := isoMillis(b); ok {
		return ms + tsShift, false
	}
	return tsRaw, true
}

// Timestamp returns the entry's timestamp as written ("" when it has
// none, or it is not a string). One written as toISOString writes them
// is made again from its milliseconds: a new string each call.
func (r *Record) Timestamp() string {
	switch r.ts {
	case tsNone:
		return ""
	case tsRaw:
		return r.RawTimestamp
	}
	return time.UnixMilli(r.ts - tsShift).UTC().Format(isoLayout)
}

// HasTimestamp reports whether Timestamp is not "".
func (r *Record) HasTimestamp() bool { return r.ts != tsNone }

// ISOTimestamp reports whether the timestamp is written exactly as
// toISOString writes them (then the order of two such is the order of
// their strings, and of their times).
func (r *Record) ISOTimestamp() bool { return r.ts > tsRaw }

// TimestampMillis returns the timestamp in milliseconds since 1970 as an
// RFC 3339 parser reads it, and false when there is none or it does not
// parse.
func (r *Record) TimestampMillis() (int64, bool) {
	switch r.ts {
	case tsNone:
		return 0, false
	case tsRaw:
		t, err := time.Parse(time.RFC3339Nano, r.RawTimestamp)
		if err != nil {
			return 0, false
		}
		return t.UnixMilli(), true
	}
	return r.ts - tsShift, true
}

// SetTimestamp sets the timestamp to s (as Extract reads it: "" for none).
func (r *Record) SetTimestamp(s string) {
	ts, raw := timestampOf([]byte(s))
	if r.Rare == nil {
		r.Rare = noRare
	} else if r.Rarer == nil {
		r.ownRare() // a Rare made without its Rarer
	}
	if raw || r.RawTimestamp != "" {
		rare := r.ownRare()
		rare.RawTimestamp = ""
		if raw {
			rare.RawTimestamp = s
		}
	}
	r.ts = ts
}

// CompareTimestamps compares the timestamps of a and b as strings (""
// first), as strings.Compare(a.Timestamp(), b.Timestamp()) does, without
// making them when both are written as toISOString writes them.
func CompareTimestamps(a, b *Record) int {
	switch {
	case a.ts > tsRaw && b.ts > tsRaw:
		return cmp.Compare(a.ts, b.ts)
	case a.ts == tsNone || b.ts == tsNone: // "" before any other
		return cmp.Compare(min(a.ts, 1), min(b.ts, 1))
	}
	return strings.Compare(a.Timestamp(), b.Timestamp())
}
