package schema

import "github.com/santhosh-tekuri/jsonschema/v5"

// dateTimeFormat is jsonschema/v5's "date-time" format: the reference.
var dateTimeFormat = jsonschema.Formats["date-time"]

func isDateTime(s string) bool { return dateTimeFormat(s) }

// isDateTimeBytes says what dateTimeFormat says of b. The usual shape,
// yyyy-mm-ddThh:mm:ss[.frac](Z|±hh:mm) written with ASCII digits, is decided
// here without allocating; any other text goes to the reference.
func isDateTimeBytes(b []byte) bool {
	ok, decided := dateTimeShape(b)
	if !decided {
		return dateTimeFormat(string(b))
	}
	return ok
}

// dateTimeShape decides b when it has the usual shape (decided true), with
// the reference's rules: full-date as time.Parse("2006-01-02") takes it,
// full-time with the leap second allowed only at 23:59 UTC.
func dateTimeShape(b []byte) (ok, decided bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't') || b[13] != ':' || b[16] != ':' {
		return false, false
	}
	year, ok1 := digits(b[0:4])
	month, ok2 := digits(b[5:7])
	day, ok3 := digits(b[8:10])
	h, ok4 := digits(b[11:13])
	m, ok5 := digits(b[14:16])
	s, ok6 := digits(b[17:19])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return false, false
	}
	rest := b[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false, false
		}
		rest = rest[n:]
	}
	var sign, zh, zm int
	switch {
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		var okh, okm bool
		zh, okh = digits(rest[1:3])
		zm, okm = digits(rest[4:6])
		if !okh || !okm {
			return false, false
		}
		sign = 1
		if rest[0] == '+' {
			sign = -1
		}
	default:
		return false, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return false, true
	}
	if h > 23 || m > 59 || s > 60 || zh > 23 || zm > 59 {
		return false, true
	}
	if s == 60 {
		hm := h*60 + m + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		if hm/60 != 23 || hm%60 != 59 {
			return false, true
		}
	}
	return true, true
}

// digits parses b when it is all ASCII digits.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days of month in year (proleptic Gregorian).
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
