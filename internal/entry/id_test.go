package entry

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestParseID: a uuid in the written form gives itself back and sorts as
// its string; any other string (a version digit 0 included) is a hash,
// equal for equal strings, never a written uuid's bits; "" is the zero
// ID.
func TestParseID(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var written []string
	for range 2000 {
		version := 1 + rng.Uint32()%15 // 0 is for hashes
		s := fmt.Sprintf("%08x-%04x-%x%03x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, version, rng.Uint32()&0xfff, rng.Uint32()&0xffff, rng.Uint64()&(1<<48-1))
		written = append(written, s)
	}
	written = append(written, "00000000-0000-1000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff")
	for _, s := range written {
		id, ok := ParseID(s)
		if !ok || id.String() != s || string(id.AppendText([]byte("x"))) != "x"+s {
			t.Fatalf("%s: ok %v, String %q", s, ok, id.String())
		}
		if b, ok := IDOfBytes([]byte(s)); !ok || b != id {
			t.Fatalf("%s: IDOfBytes differs", s)
		}
		if w, ok := ParseWritten(s); !ok || w != id {
			t.Fatalf("%s: ParseWritten differs", s)
		}
	}
	byID := slices.Clone(written)
	slices.SortFunc(byID, func(a, b string) int {
		x, _ := ParseID(a)
		y, _ := ParseID(b)
		return x.Compare(y)
	})
	slices.Sort(written)
	if !slices.Equal(byID, written) {
		t.Error("IDs do not sort as their strings")
	}
	raw := []string{"u1", "a", "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
		"3f2a9c1e-7b4d-0e8f-a0b1-c2d3e4f5a6b7", strings.ToUpper("3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7"),
		"3f2a9c1e7b4d4e8fa0b1c2d3e4f5a6b7", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6bg", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7 ",
		"3f2a9c1e_7b4d-4e8f-a0b1-c2d3e4f5a6b7", "é2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b"}
	seen := map[ID]string{}
	for _, s := range raw {
		id, ok := ParseID(s)
		if ok || id.IsZero() || id.Hi&versionBits != 0 {
			t.Errorf("%q: ok %v, zero %v, version digit %x (a written uuid's could be its bits)", s, ok, id.IsZero(), id.Hi>>12&0xf)
		}
		if again, _ := IDOfBytes([]byte(s)); again != id {
			t.Errorf("%q: ParseID and IDOfBytes differ", s)
		}
		if _, ok := ParseWritten(s); ok {
			t.Errorf("%q: ParseWritten accepts it", s)
		}
		if o, dup := seen[id]; dup {
			t.Errorf("%q and %q: one ID", s, o)
		}
		seen[id] = s
	}
	if id, ok := ParseID(""); ok || !id.IsZero() || id.String() != "" {
		t.Error(`"": not the zero ID`)
	}
}

// TestSetUUID: a record's uuid and parentUuid read back as set, in the
// written form or not, one after the other, without writing a Rare they
// share.
func TestSetUUID(t *testing.T) {
	shared := &Rare{Subtype: "x", Rarer: &Rarer{}}
	r := Ref(1, 0)
	r.Rare = shared
	vals := []string{"", "u1", "3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7", "p", "00000000-0000-0000-0000-000000000000"}
	for _, u := range vals {
		for _, p := range vals {
			r.SetUUID(u)
			r.SetParentUUID(p)
			if r.UUID() != u || r.ParentUUID() != p {
				t.Fatalf("set %q, %q: got %q, %q", u, p, r.UUID(), r.ParentUUID())
			}
			wu, _ := ParseID(u)
			wp, _ := ParseID(p)
			if r.ID() != wu || r.ParentID() != wp {
				t.Fatalf("set %q, %q: IDs differ", u, p)
			}
			if r.Subtype != "x" || shared.rawIDs != nil {
				t.Fatalf("set %q, %q: the Rare was written", u, p)
			}
		}
	}
	r.SetUUID("")
	r.SetParentUUID("")
	if r.rawIDs != nil || r.n&(rawUUIDBit|rawParentBit) != 0 {
		t.Error("raw strings kept after both were cleared")
	}
	r.AddTool(ToolUse("t", "", 0, false))
	r.SetUUID("u2")
	r.AddTool(ToolResult("r", 0))
	if r.UUID() != "u2" || len(r.ToolUses()) != 1 || len(r.ToolResults()) != 1 {
		t.Error("tool counts and the raw uuid's bit mixed")
	}
}

// TestRareWithoutRarer: a Rare made without its Rarer (a composite
// literal) is given one by the setters, not dereferenced.
func TestRareWithoutRarer(t *testing.T) {
	r := Ref(1, 0)
	r.Rare = &Rare{Subtype: "x"}
	r.SetIDs("m", "s")
	r.SetTimestamp("2026-01-02T03:04:05.678Z")
	r.SetTimestamp("yesterday")
	if r.SourceToolAssistantUUID() != "s" || r.Timestamp() != "yesterday" || r.Subtype != "x" || noRarer.SourceAlso != "" {
		t.Errorf("source %q, timestamp %q, subtype %q", r.SourceToolAssistantUUID(), r.Timestamp(), r.Subtype)
	}
	r.Rare = &Rare{}
	if r.SourceToolAssistantUUID() != "" || r.UUID() != "" {
		t.Error("a Rare without its Rarer reads as fields set")
	}
}

// mustID is ParseID's ID of s.
func mustID(s string) ID {
	id, _ := ParseID(s)
	return id
}

// TestIDOfBytes: the ID of bytes is ParseID's of the same string, the
// empty and other strings included.
func TestIDOfBytes(t *testing.T) {
	for _, s := range []string{"", "m", "msg_01AbCdEf", "0b8ac3f2-5d1e-4c8a-9f00-1a2b3c4d5e6f", "0B8AC3F2-5D1E-4C8A-9F00-1A2B3C4D5E6F"} {
		if got, _ := IDOfBytes([]byte(s)); got != mustID(s) {
			t.Errorf("IDOfBytes(%q) = %v, want %v", s, got, mustID(s))
		}
	}
}
