package chain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

// TestUUIDIndex checks the index against a map: first, last and msg of
// every uuid, repeats, and uuids it does not hold, on tables from tiny
// (every probe wraps) to large.
func TestUUIDIndex(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100, 5000} {
		recs := make([]*entry.Record, n)
		want := map[string]uuidAt{}
		for i := range recs {
			u := fmt.Sprintf("u-%d", i%(n/2+1)) // about half repeat
			if i%11 == 5 {
				u = ""
			}
			recs[i] = entry.Ref(i+1, int64(i))
			recs[i].SetUUID(u)
		}
		x := newUUIDIndex(recs, len(recs))
		for i, r := range recs {
			if r.UUID() == "" {
				continue
			}
			s, seen := x.add(i)
			a, ok := want[r.UUID()]
			if seen != ok {
				t.Fatalf("n=%d: add(%d) seen=%v, want %v", n, i, seen, ok)
			}
			if !ok {
				a = uuidAt{first: int32(i), msg: -1}
			}
			a.last, s.last = int32(i), int32(i)
			if i%3 == 0 {
				a.msg, s.msg = int32(i), int32(i)
			}
			want[r.UUID()] = a
		}
		for u, a := range want {
			if got, ok := x.get(idOf(u)); !ok || got != a {
				t.Errorf("n=%d: get(%q) = %v, %v; want %v", n, u, got, ok, a)
			}
		}
		for _, u := range []string{"", "u-x", fmt.Sprintf("u-%d", n)} {
			if _, ok := x.get(idOf(u)); ok {
				t.Errorf("n=%d: get(%q) found", n, u)
			}
		}
	}
}

// TestMarks checks IsLast and IsRepeat against LastWith and FirstWith.
func TestMarks(t *testing.T) {
	var recs []*entry.Record
	for i, u := range []string{"a", "b", "", "a", "c", "b", "a", ""} {
		r := entry.Ref(i+1, int64(i))
		r.SetUUID(u)
		recs = append(recs, r)
	}
	g := Build(recs)
	if g.Repeats() != 3 {
		t.Errorf("Repeats = %d, want 3", g.Repeats())
	}
	for i, r := range recs {
		last := r.UUID() != "" && g.LastWith(r.UUID()) == i
		repeat := r.UUID() != "" && g.FirstWith(r.UUID()) != i
		if g.IsLast(i) != last || g.IsRepeat(i) != repeat {
			t.Errorf("record %d (%q): IsLast %v IsRepeat %v, want %v %v", i, r.UUID(), g.IsLast(i), g.IsRepeat(i), last, repeat)
		}
	}
}

// TestLastParent checks LastParent against LastWith of the parent.
func TestLastParent(t *testing.T) {
	var recs []*entry.Record
	for i, s := range []string{"a", "b<a", "c<b", "b<c", "d<b", "e<x", "f", "g<"} {
		r := entry.Ref(i+1, int64(i))
		u, p, has := strings.Cut(s, "<")
		r.SetUUID(u)
		r.SetParentUUID(p)
		r.HasParent = has
		recs = append(recs, r)
	}
	g := Build(recs)
	for i, r := range recs {
		want := -1
		if r.HasParent {
			want = g.LastWith(r.ParentUUID())
		}
		if got := g.LastParent(i); got != want {
			t.Errorf("LastParent(%d) = %d, want %d", i, got, want)
		}
	}
}
