package secret_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// A line that does not parse (a torn fragment an interrupted append glued
// the next entry onto, a truncated last line) holds what was written in
// it: ScanBroken finds its keys as in the intact entry (same fingerprint),
// and Spans masks their raw bytes. Before, such a line was scanned raw
// only: a value in escaped quotes (`API_KEY=\"…\"`) was neither reported
// nor masked, and an invalid-json snippet printed it.
func TestScanBrokenLine(t *testing.T) {
	g := secrettest.New(7)
	sc := secret.Default()
	entry := func(text string) string {
		b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
		return string(b)
	}
	gen, pem, aws := g.Generic(), g.PEM(), g.AWS()
	texts := map[string]string{
		"generic in escaped quotes": `use API_KEY="` + gen + `" please`,
		"pem":                       "key:\n" + pem + "\nend",
		"aws":                       "AWS_ACCESS_KEY_ID=" + aws + " ok",
	}
	for name, text := range texts {
		whole := entry(text)
		var tr jsontree.Tree
		if tr.Parse([]byte(whole)) != nil {
			t.Fatal(name)
		}
		var want []string
		sc.ScanTree(&tr, nil, nil, func(f secret.Found) { want = append(want, f.Fingerprint()) })
		if len(want) != 1 {
			t.Fatalf("%s: the intact entry holds %d secrets", name, len(want))
		}
		for _, line := range []string{
			`{"type":"user","mess` + whole, // glued onto a fragment
			whole[:len(whole)-3],           // torn at the end
		} {
			var got []string
			sc.ScanBroken([]byte(line), func(f secret.Found) {
				got = append(got, f.Fingerprint())
				value := string(line[f.RawStart:f.RawEnd])
				if u, err := jsonUnquote(value); err != nil || u != f.Value {
					t.Errorf("%s: raw bytes %d..%d do not decode to the value", name, f.RawStart, f.RawEnd)
				}
			})
			if strings.Join(got, ",") != want[0] {
				t.Errorf("%s: ScanBroken found %v, the intact entry %v", name, got, want)
			}
			checkMasked(t, name, sc, line, gen, aws, pem[40:80])
		}
	}
	// Escapes inside the key and before it: a \u escape, a surrogate pair.
	esc := `{"type":"user","content":"\ud83d\ude00 \"AWS_ACCESS_KEY_ID\": \"` + aws[:5] + `\u00` +
		fmt.Sprintf("%x", aws[5]) + aws[6:] + `\"\n`
	var got []string
	sc.ScanBroken([]byte(esc), func(f secret.Found) {
		got = append(got, f.Value)
		if u, err := jsonUnquote(esc[f.RawStart:f.RawEnd]); err != nil || u != f.Value {
			t.Errorf("escaped key: raw bytes %d..%d do not decode to the value", f.RawStart, f.RawEnd)
		}
	})
	if len(got) != 1 || got[0] != aws {
		t.Errorf("escaped key: ScanBroken found %d secrets, want the key", len(got))
	}
	checkMasked(t, "escaped key", sc, esc, aws)
}

func checkMasked(t *testing.T, name string, sc *secret.Scanner, line string, keys ...string) {
	t.Helper()
	masked := []byte(line)
	for _, sp := range sc.Spans(masked) {
		for i := sp[0]; i < sp[1]; i++ {
			masked[i] = '*'
		}
	}
	for _, v := range keys {
		if strings.Contains(string(masked), v[6:]) {
			t.Errorf("%s: Spans leaves a key unmasked", name)
		}
	}
}

func jsonUnquote(raw string) (string, error) {
	var s string
	err := json.Unmarshal([]byte(`"`+raw+`"`), &s)
	return s, err
}
