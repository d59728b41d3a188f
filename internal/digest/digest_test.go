package digest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

func rec(line int, uuid string, tools ...string) *entry.Record {
	r := entry.Ref(line, int64(line*100))
	r.SetUUID(uuid)
	for _, t := range tools {
		r.AddTool(entry.ToolUse(t, "", 0, false))
	}
	return r
}

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"00000000-0000-1000-0000-000000000001", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7", "ffffffff-ffff-ffff-ffff-ffffffffffff"} {
		k, ok := parse(s)
		if !ok || format(k) != s {
			t.Errorf("%s: parse ok=%v, format %s", s, ok, format(k))
		}
	}
	// A version digit 0 (all zeros too) is kept as a string (see entry.ID).
	for _, s := range []string{"", "00000000-0000-0000-0000-000000000000", "3f2a9c1e-7b4d-0e8f-a0b1-c2d3e4f5a6b7", "3F2A9C1E-7B4D-4E8F-A0B1-C2D3E4F5A6B7", "3f2a9c1e7b4d4e8fa0b1c2d3e4f5a6b7", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6bg", "3f2a9c1e_7b4d-4e8f-a0b1-c2d3e4f5a6b7"} {
		if _, ok := parse(s); ok {
			t.Errorf("%q parsed as canonical", s)
		}
	}
}

func TestDigest(t *testing.T) {
	u := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", i) }
	recs := []*entry.Record{
		rec(1, u(5)),
		rec(2, "odd-uuid", "toolu_b"),
		rec(3, u(1), "toolu_a", ""),
		rec(5, u(5), "toolu_c"),
		rec(6, ""),
	}
	d := Build(recs, true)
	for _, s := range []string{u(5), u(1), "odd-uuid"} {
		if !d.HasUUID(s) {
			t.Errorf("HasUUID(%s) false", s)
		}
	}
	for _, s := range []string{u(2), "", "ODD-UUID"} {
		if d.HasUUID(s) {
			t.Errorf("HasUUID(%q) true", s)
		}
	}
	if d.Last(u(5)) != 3 || d.Last("odd-uuid") != 1 || d.Last(u(9)) != -1 {
		t.Errorf("Last: %d %d %d", d.Last(u(5)), d.Last("odd-uuid"), d.Last(u(9)))
	}
	for _, id := range []string{"toolu_a", "toolu_b", "toolu_c", ""} {
		if !d.HasTool(id) {
			t.Errorf("HasTool(%q) false", id)
		}
	}
	if d.HasTool("toolu_d") {
		t.Error("HasTool(toolu_d) true")
	}
	if !d.Holds(u(1), []string{"x", ""}) {
		t.Error("Holds(u1, empty id) false")
	}
	if d.Holds(u(5), []string{"toolu_a"}) || !d.Holds(u(5), []string{"toolu_c"}) {
		t.Error("Holds(u5, toolu_a or toolu_c) wrong")
	}
	if d.Holds(u(2), []string{"toolu_a"}) {
		t.Error("Holds(u2) true")
	}
	if r := d.RecordAt(5); r == nil || r.Line != 5 || r.Offset != 500 || r.UUID() != u(5) {
		t.Errorf("RecordAt(5) = %+v", r)
	}
	if r := d.RecordAt(2); r == nil || r.UUID() != "odd-uuid" {
		t.Errorf("RecordAt(2) = %+v", r)
	}
	if r := d.RecordAt(6); r == nil || r.UUID() != "" {
		t.Errorf("RecordAt(6) = %+v", r)
	}
	if d.RecordAt(4) != nil {
		t.Error("RecordAt(4) not nil")
	}
	d.Compact()
	if d.Last(u(5)) != -1 || !d.HasUUID(u(5)) {
		t.Error("Compact")
	}
	if Build(recs, false).RecordAt(5) != nil {
		t.Error("RecordAt without lines")
	}
}

// TestBuildMany: a digest of enough records to be sorted by buckets
// (bucketSort) holds its keys and tool ids in the order one sort gives,
// whatever they look like: random and sequential uuids, repeated ones,
// tool ids with and without a shared prefix, shorter than it, empty.
func TestBuildMany(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, prefix := range []string{"toolu_01", ""} {
		var recs []*entry.Record
		for i := range 5000 {
			var u string
			switch i % 5 {
			case 0:
				u = fmt.Sprintf("00000000-0000-4000-8000-%012x", i%700) // sequential, repeated
			case 1:
				u = fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xfff,
					0x8000|rng.Uint32()&0x3fff, rng.Uint64()&0xffffffffffff)
			case 2:
				u = fmt.Sprintf("ffff%04x-0000-4000-8000-000000000000", rng.IntN(3)) // one bucket
			case 3:
				u = "odd-" + fmt.Sprint(i%50)
			}
			var tools []string
			switch i % 7 {
			case 0:
				tools = append(tools, prefix+fmt.Sprintf("%x", rng.Uint64()))
			case 1:
				tools = append(tools, prefix+fmt.Sprint(i%3)) // short, repeated
			case 2:
				tools = append(tools, prefix, prefix+"Z"+fmt.Sprint(i%11))
			case 3:
				if prefix == "" {
					tools = append(tools, "", "call_"+fmt.Sprint(i))
				}
			}
			recs = append(recs, rec(i+1, u, tools...))
		}
		d := Build(recs, false)
		// On two goroutines (the keys sorted in two halves, the tools
		// listed beside them): the same digest.
		old := parallelFrom
		parallelFrom = 1000
		for _, lines := range []bool{false, true} {
			if got, want := BuildOn(recs, lines, 2), Build(recs, lines); !reflect.DeepEqual(got, want) {
				t.Fatalf("prefix %q, lines %v: BuildOn on two goroutines differs from Build", prefix, lines)
			}
		}
		parallelFrom = old
		var keys []key
		last := map[key]int32{}
		var ids []tool
		for i, r := range recs {
			if k, ok := parse(r.UUID()); ok {
				keys = append(keys, k)
				last[k] = int32(i)
			}
		}
		slices.SortFunc(keys, cmpKey)
		keys = slices.Compact(keys)
		if !slices.Equal(d.keys, keys) {
			t.Fatalf("prefix %q: %d keys, want %d, or out of order", prefix, len(d.keys), len(keys))
		}
		for i, k := range d.keys {
			if d.last[i] != last[k] {
				t.Fatalf("prefix %q: last of %s = %d, want %d", prefix, format(k), d.last[i], last[k])
			}
		}
		ids = append(ids, d.tools...)
		slices.SortStableFunc(ids, func(a, b tool) int {
			if c := strings.Compare(d.id(a), d.id(b)); c != 0 {
				return c
			}
			return cmp.Compare(a.owner, b.owner)
		})
		if !slices.Equal(d.tools, ids) {
			t.Fatalf("prefix %q: tools out of order", prefix)
		}
		for _, r := range recs {
			for _, tu := range r.ToolUses() {
				if !d.HasTool(tu.ID) {
					t.Fatalf("prefix %q: HasTool(%q) false", prefix, tu.ID)
				}
			}
		}
	}
}

func TestUnion(t *testing.T) {
	a := Build([]*entry.Record{rec(1, "00000000-0000-4000-8000-000000000002", "t2", "t1"), rec(2, "odd")}, false)
	b := Build([]*entry.Record{rec(1, "00000000-0000-4000-8000-000000000001", "t1"), rec(2, "odd", "")}, false)
	u := Union([]*Digest{a, nil, b})
	for _, s := range []string{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "odd"} {
		if !u.HasUUID(s) {
			t.Errorf("HasUUID(%s) false", s)
		}
	}
	for _, id := range []string{"t1", "t2", ""} {
		if !u.HasTool(id) {
			t.Errorf("HasTool(%q) false", id)
		}
	}
	if u.HasUUID("00000000-0000-4000-8000-000000000003") || u.HasTool("t3") || len(u.keys) != 2 || len(u.odd) != 1 || len(u.tools) != 3 {
		t.Errorf("union %+v", u)
	}
}

// BenchmarkBuild digests a transcript of 1,000 entries, a third of them
// holding a tool_use, and looks each uuid and tool id up once.
func BenchmarkBuild(b *testing.B) {
	var recs []*entry.Record
	for i := range 1000 {
		r := rec(i+1, fmt.Sprintf("%08x-0000-4000-8000-%012x", i*7919, i))
		if i%3 == 0 {
			r.AddTool(entry.ToolUse(fmt.Sprintf("toolu_01%022d", i), "", 0, false))
		}
		recs = append(recs, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		d := Build(recs, false)
		for _, r := range recs {
			if !d.HasUUID(r.UUID()) {
				b.Fatal("uuid not found")
			}
			for _, t := range r.ToolUses() {
				if !d.HasTool(t.ID) {
					b.Fatal("tool not found")
				}
			}
		}
	}
}

// TestParseEveryByte puts every byte value at every digit position of
// valid uuids: parse accepts exactly the lowercase hex digits there, and
// gives back the same string.
func TestParseEveryByte(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const hexd = "0123456789abcdef"
	for range 40 {
		b := []byte("00000000-0000-0000-0000-000000000000")
		for i := range b {
			if b[i] != '-' {
				b[i] = hexd[rnd.IntN(16)]
			}
		}
		for pos := range b {
			if b[pos] == '-' {
				continue
			}
			orig := b[pos]
			for c := range 256 {
				b[pos] = byte(c)
				s := string(b)
				k, ok := parse(s)
				want := strings.IndexByte(hexd, byte(c)) >= 0 && b[14] != '0' // version 0: a string (entry.ID)
				if ok != want || ok && format(k) != s {
					t.Fatalf("%q: ok=%v, want %v, format %q", s, ok, want, format(k))
				}
			}
			b[pos] = orig
		}
	}
}

// letters are the characters of a tool id after "toolu_01".
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// largeRecords is one long session's records: 180,000 entries with random
// (version 4) uuids, a quarter of them holding a tool_use with a random id,
// about the 500 MB real-shaped transcript of bench/bench.sh.
func largeRecords() []*entry.Record {
	rng := rand.New(rand.NewPCG(1, 2))
	recs := make([]*entry.Record, 180_000)
	for i := range recs {
		u := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xfff,
			0x8000|rng.Uint32()&0x3fff, rng.Uint64()&0xffffffffffff)
		var tools []string
		if i%4 == 1 {
			id := []byte("toolu_01")
			for range 22 {
				id = append(id, letters[rng.IntN(len(letters))])
			}
			tools = append(tools, string(id))
		}
		recs[i] = rec(i+1, u, tools...)
	}
	return recs
}

// BenchmarkBuildLarge digests largeRecords.
func BenchmarkBuildLarge(b *testing.B) {
	recs := largeRecords()
	b.ReportAllocs()
	for b.Loop() {
		Build(recs, false)
	}
}

// BenchmarkHasToolLarge looks every tool id of largeRecords up in their
// digest, in file order (what unmatched-tool-result's Keeps does for the
// results of a file).
func BenchmarkHasToolLarge(b *testing.B) {
	recs := largeRecords()
	d := Build(recs, false)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			for _, t := range r.ToolUses() {
				if !d.HasTool(t.ID) {
					b.Fatal("not found")
				}
			}
		}
	}
}

// BenchmarkUnion unites the digests of a project folder of 800 sessions of
// 400 entries each, a third of them holding a tool_use (the one 800 MB
// folder's shape).
func BenchmarkUnion(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	ds := make([]*Digest, 800)
	for i := range ds {
		recs := make([]*entry.Record, 400)
		for j := range recs {
			var tools []string
			if j%3 == 0 {
				id := []byte("toolu_01")
				for range 22 {
					id = append(id, letters[rng.IntN(len(letters))])
				}
				tools = []string{string(id)}
			}
			recs[j] = rec(j+1, fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rng.Uint32(), rng.IntN(1<<16), rng.IntN(1<<12), rng.IntN(1<<12), rng.Uint64()>>16), tools...)
		}
		ds[i] = Build(recs, false)
	}
	b.ReportAllocs()
	for b.Loop() {
		Union(ds)
	}
}

// TestBucketSortBothWays: scattered into a copy or swapped in place,
// bucketSort sorts as slices.SortFunc does.
func TestBucketSortBothWays(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	keys := make([]key, 5000)
	for i := range keys {
		keys[i] = key{Hi: rng.Uint64() >> rng.IntN(8), Lo: rng.Uint64() % 7}
	}
	want := slices.Clone(keys)
	slices.SortFunc(want, cmpKey)
	shift := keyShift(len(keys))
	for _, copyMax := range []int{0, len(keys)} {
		got := slices.Clone(keys)
		bucketSort(got, 1<<(64-shift), func(k key) int { return int(k.Hi >> shift) }, cmpKey, copyMax)
		if !slices.Equal(got, want) {
			t.Errorf("copyMax %d: not sorted", copyMax)
		}
	}
}

// TestBuildEmptyToolIDs: tool_use blocks whose ids are all empty give an
// empty arena, not a panic, and each id (even "") is found.
func TestBuildEmptyToolIDs(t *testing.T) {
	recs := []*entry.Record{rec(1, "00000000-0000-4000-8000-000000000001", ""), rec(2, "00000000-0000-4000-8000-000000000002", "", "")}
	d := Build(recs, false)
	if !d.HasTool("") || d.HasTool("toolu_01") {
		t.Errorf("HasTool(\"\") %v, HasTool(toolu_01) %v", d.HasTool(""), d.HasTool("toolu_01"))
	}
}
