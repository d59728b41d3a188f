package schema

import (
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// Keys that differ in bytes but decode to the same string (invalid UTF-8
// becomes U+FFFD): encoding/json keeps the last value only.
func TestFastUnknownDupDecoded(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	val := `{"backupFileName":null,"version":1,"backupTime":"2026-01-29T22:21:34.517Z"}`
	bad := `{"backupFileName":null,"version":1,"backupTime":"2026-01-29T22:21:34.517Z","zz":1}`
	pre := `{"type":"file-history-snapshot","messageId":"2d6654e2-6d40-4a1d-bb28-a27e1c80e8f1","snapshot":{"messageId":"6d1a82a3-c4a3-421f-8380-9926ac3e985c","trackedFileBackups":{`
	post := `},"timestamp":"2026-01-29T22:19:53.598Z"},"isSnapshotUpdate":true}`
	for _, mid := range []string{
		"\"a\xff\":" + bad + ",\"a\xef\xbf\xbd\":" + val,
		"\"a\xff\":" + bad + ",\"a\\ufffd\":" + val,
		"\"a\xff\":" + bad + ",\"a\xfe\":" + val,
		"\"a\\ud800\":" + bad + ",\"a\\udc00\":" + val,
		"\"a\":" + bad + ",\"\\u0061\":" + val,
	} {
		line := pre + mid + post
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		dv, ok := decodeLine([]byte(line))
		if !ok {
			t.Fatal("decode")
		}
		typ := "file-history-snapshot"
		fv := v.FastEntry(typ, &tr)
		got, gok := v.FastUnknownEntry(typ, &tr)
		ref := v.ValidateEntry(typ, dv)
		jv, _, _ := jsontree.Decode([]byte(line))
		ref2 := v.ValidateEntryTree(typ, jv, &tr)
		t.Logf("%q: fast %v ok=%v got %d, ref %d, ref-tree %d", mid, fv, gok, len(got), len(ref), len(ref2))
		// (The verdict itself may disagree here: the fast check compares
		// such keys by their bytes. Only the unknown fields are held.)
		if gok || fv != UnknownOnly {
			if d := agreeUnknown(fv, got, gok, ref, false); d != "" {
				t.Errorf("%q: %s", mid, d)
			}
		}
		if d := agreeUnknown(fv, got, gok, ref2, true); d != "" {
			t.Errorf("%q: %s", mid, d)
		}
	}
}
