package resume

import (
	"bytes"
	"strings"
	"testing"
)

// TestLoadDeepNotObject: a line nested deeper than ccvet reads whose
// value is not an object is skipped by the reader as any such line is.
func TestLoadDeepNotObject(t *testing.T) {
	deep := strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
	for _, c := range []struct{ line, want string }{
		{deep, "not a JSON object; the reader skips it"},
		{" \t" + deep, "not a JSON object; the reader skips it"},
		{`{"type":"user","x":` + deep + `}`, "the reader parses it"},
	} {
		ld, err := Load(bytes.NewReader([]byte(c.line + "\n")))
		if err != nil {
			t.Fatal(err)
		}
		if len(ld.Skipped) != 1 || !strings.Contains(ld.Skipped[0].Reason, c.want) {
			t.Errorf("%.30q: skipped %+v, want %q", c.line, ld.Skipped, c.want)
		}
	}
}
