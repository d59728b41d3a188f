package digest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

func rec(line int, uuid string, tools ...string) *entry.Record {
	r := entry.Ref(line, int64(line*100))
	r.UUID = uuid
	for _, t := range tools {
		r.AddTool(entry.Tool{ID: t})
	}
	return r
}

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"00000000-0000-0000-0000-000000000000", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7", "ffffffff-ffff-ffff-ffff-ffffffffffff"} {
		k, ok := parse(s)
		if !ok || format(k) != s {
			t.Errorf("%s: parse ok=%v, format %s", s, ok, format(k))
		}
	}
	for _, s := range []string{"", "3F2A9C1E-7B4D-4E8F-A0B1-C2D3E4F5A6B7", "3f2a9c1e7b4d4e8fa0b1c2d3e4f5a6b7", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6bg", "3f2a9c1e_7b4d-4e8f-a0b1-c2d3e4f5a6b7"} {
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
	if f, h := d.Holds(u(1), []string{"x", ""}); !f || !h {
		t.Errorf("Holds(u1, empty id) = %v %v", f, h)
	}
	if f, h := d.Holds(u(5), []string{"toolu_a"}); !f || h {
		t.Errorf("Holds(u5, toolu_a) = %v %v", f, h)
	}
	if f, h := d.Holds(u(2), []string{"toolu_a"}); f || h {
		t.Errorf("Holds(u2) = %v %v", f, h)
	}
	if r := d.RecordAt(5); r == nil || r.Line != 5 || r.Offset != 500 || r.UUID != u(5) {
		t.Errorf("RecordAt(5) = %+v", r)
	}
	if r := d.RecordAt(2); r == nil || r.UUID != "odd-uuid" {
		t.Errorf("RecordAt(2) = %+v", r)
	}
	if r := d.RecordAt(6); r == nil || r.UUID != "" {
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
			r.Tools = []entry.Tool{{ID: fmt.Sprintf("toolu_01%022d", i)}}
		}
		recs = append(recs, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		d := Build(recs, false)
		for _, r := range recs {
			if !d.HasUUID(r.UUID) {
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
				want := strings.IndexByte(hexd, byte(c)) >= 0
				if ok != want || ok && format(k) != s {
					t.Fatalf("%q: ok=%v, want %v, format %q", s, ok, want, format(k))
				}
			}
			b[pos] = orig
		}
	}
}
