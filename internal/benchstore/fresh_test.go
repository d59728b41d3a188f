package benchstore

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestFreshText: a rewritten line is still JSON of the same shape, with the
// same keys, short strings, ids, paths and escapes; its long strings differ
// from the original's and from another copy's by their first three letters
// only, and the same text in one copy reads the same in both places.
func TestFreshText(t *testing.T) {
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 3)
	line := `{"type":"user","uuid":"3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7","cwd":"/home/bench/` + strings.Repeat("x", 70) + `",` +
		`"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_` + strings.Repeat("a", 64) + `","content":"` + long + `\n\"quoted\" \u00e9 caf\u00E9"}]},` +
		`"toolUseResult":{"stdout":"` + long + `\n\"quoted\" \u00e9 caf\u00E9","filePath":"/home/bench/` + strings.Repeat("y", 70) + `"},` +
		`"short":"Short text stays","list":["` + long + `", "` + long + `"]}` + "\n"
	a := freshText([]byte(line), 1)
	b := freshText([]byte(line), 2)
	if !bytes.Equal(a, freshText([]byte(line), 1)) {
		t.Fatal("not deterministic")
	}
	if bytes.Equal(a, b) || bytes.Contains(a, []byte(`"The quick`)) || !bytes.Contains(a, []byte(`"Baa quick`)) {
		t.Fatalf("long text not rewritten:\n%s\n%s", a, b)
	}
	var orig, got map[string]any
	if err := json.Unmarshal([]byte(line), &orig); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(a, &got); err != nil {
		t.Fatalf("rewritten line is not JSON: %v\n%s", err, a)
	}
	same := func(path ...string) any {
		var o, g any = orig, got
		for _, p := range path {
			o, g = o.(map[string]any)[p], g.(map[string]any)[p]
		}
		if !reflect.DeepEqual(o, g) {
			t.Errorf("%v: %v became %v", path, o, g)
		}
		return g
	}
	same("type")
	same("uuid")
	same("cwd")
	same("short")
	same("toolUseResult", "filePath")
	block := got["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
	if block["tool_use_id"] != orig["message"].(map[string]any)["content"].([]any)[0].(map[string]any)["tool_use_id"] {
		t.Error("tool_use_id rewritten")
	}
	text := block["content"].(string)
	if text != got["toolUseResult"].(map[string]any)["stdout"] {
		t.Error("the same text reads differently in two places of one copy")
	}
	if !strings.HasSuffix(text, "\n\"quoted\" é café") {
		t.Errorf("escapes changed: %q", text)
	}
	if l := got["list"].([]any); l[0] != l[1] || l[0] == long {
		t.Errorf("array strings: %q", l)
	}
	if len(a) != len(line) {
		t.Errorf("length %d, want %d", len(a), len(line))
	}
}
