package plan

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// Describe shows the first and last bytes an edit removes (`ccvet fix -v`,
// the steps of later passes): the bytes of a secret there are masked, the
// line scanned whole. Deleting a torn last line that ends just after a key
// printed the key's end before.
func TestDescribeMasksSecrets(t *testing.T) {
	key := secrettest.New(17).GitHub()
	good := `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n"
	torn := `{"type":"user","message":{"role":"user","content":"GITHUB_TOKEN=` + key + ` and`
	data := []byte(good + torn)
	cases := []edit.Edit{
		{Offset: int64(len(good)), Length: int64(len(torn))},                              // the torn line, deleted
		{Offset: int64(len(good) + strings.Index(torn, key) + 10), Length: 20, Text: "x"}, // inside the key only
	}
	for _, e := range cases {
		d := Describe(data, e)
		for i := 0; i+8 <= len(key); i++ {
			if strings.Contains(d, key[i:i+8]) {
				t.Fatalf("Describe shows part of the key: %s", strings.ReplaceAll(d, key, "<KEY>"))
			}
		}
		if !strings.Contains(d, "*") {
			t.Errorf("no masked byte in %q", d)
		}
	}
	if d := Describe(data, edit.Edit{Offset: 2, Length: 4}); d != `@2 delete 4 bytes "type"` {
		t.Errorf("an edit away from a key: %s", d)
	}
}
