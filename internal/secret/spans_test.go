package secret

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// escapedLines are JSON lines each holding one key (built at run time)
// whose raw bytes show no keyword place: a \u escape spells the byte
// after its short keyword ("SK\u0030…": the keyword pass reads "sk" only
// before hex digits, b0311c2), or one of the keyword's own.
func escapedLines(seed uint64) map[string]string {
	rng := rand.New(rand.NewPCG(seed, seed^0x5ec7e7))
	pick := func(set string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(set[rng.IntN(len(set))])
		}
		return b.String()
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	esc := func(k string, i int) string { return k[:i] + fmt.Sprintf(`\u%04x`, k[i]) + k[i+1:] }
	twilio := "S" + "K" + pick("0123456789abcdef", 32)
	vault := "s" + "." + pick("abcdefghijklmnopqrstuvwxyz0123456789", 24)
	jwt := func(e func(string, int) string) string {
		return e("e"+"y"+pick(alnum, 30), 2) + "." + e("e"+"y"+pick(alnum, 30), 2) + "." + pick(alnum, 20)
	}
	return map[string]string{
		"twilio-api-key after sk":      `{"note":"` + esc(twilio, 2) + `"}`,
		"twilio-api-key 2 after sk":    `{"note":"` + esc(esc(twilio, 3), 2) + `"}`,
		"twilio-api-key in sk":         `{"note":"` + esc(twilio, 1) + `"}`,
		"vault-service-token after s.": `{"note":"` + esc(vault, 2) + `"}`,
		"vault-service-token in s.":    `{"note":"` + esc(vault, 0) + `"}`,
		"jwt after ey":                 `{"note":"` + jwt(esc) + `"}`,
		"jwt 2 after ey":               `{"note":"` + jwt(func(k string, i int) string { return esc(esc(k, i+1), i) }) + `"}`,
	}
}

// Spans finds in a JSON line what ScanTree finds, where the raw line
// shows no keyword place (a \u escape spells one): report.MaskSecrets
// masked none of these keys when it asked Candidates of the raw line.
func TestSpansEscapedPlaces(t *testing.T) {
	s := Default()
	var tr jsontree.Tree
	for name, line := range escapedLines(41) {
		if s.Candidates([]byte(line)) {
			t.Errorf("%s: the raw line shows a keyword place: the case tests nothing", name)
		}
		if tr.Parse([]byte(line)) != nil {
			t.Fatalf("%s: does not parse", name)
		}
		var want [][2]int
		s.ScanTree(&tr, nil, nil, func(f Found) { want = append(want, [2]int{f.RawStart, f.RawEnd}) })
		got := s.Spans([]byte(line))
		if len(want) != 1 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: Spans %v, ScanTree %v", name, got, want)
		}
	}
}

// Without a \u escape a line's decoded strings hold no keyword place its
// raw bytes lack: on lines of the short keywords, the bytes their follows
// take and the short escapes, where Candidates is false, ScanTree finds
// nothing (Spans skips those lines).
func TestSpansShortEscapes(t *testing.T) {
	s := Default()
	rng := rand.New(rand.NewPCG(5, 41))
	pieces := []string{"sk", "SK", "s.", "ey", "sc_", "hf_", "sg.", "SG.", "A3-", "q~", "0", "7", "a", "f", "Z", "k", "_", "-", ".", "=",
		`\n`, `\"`, `\\`, `\/`, `\t`, `\r`, `\b`, `\f`, " ", "\u212a", "\u017f", "\xff", "é"}
	var tr jsontree.Tree
	checked := 0
	for n := 0; n < 80000; n++ {
		var b strings.Builder
		b.WriteString(`{"note":"`)
		for b.Len() < 40+rng.IntN(80) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteString(`"}`)
		line := []byte(b.String())
		if s.Candidates(line) || tr.Parse(line) != nil {
			continue
		}
		checked++
		s.ScanTree(&tr, nil, nil, func(f Found) {
			t.Fatalf("%q: no keyword place in the raw line, but ScanTree finds %s at %d", line, f.Rule.ID, f.RawStart)
		})
		if got := s.Spans(line); got != nil {
			t.Fatalf("%q: Spans %v", line, got)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d lines without a keyword place", checked)
	}
}
