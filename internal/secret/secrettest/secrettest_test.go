package secrettest_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// TestExpand: a slot becomes the first key its seed draws, escaped for a
// JSON string, the same each time; an unknown kind is an error.
func TestExpand(t *testing.T) {
	in := []byte(`{"a":"key {{secrettest.Generic(25)}} and {{secrettest.PEM(3)}}","b":"{{secrettest.Generic(25)}}"}`)
	if !secrettest.Expanding(in) {
		t.Fatal("Expanding: no slot seen")
	}
	out, err := secrettest.Expand(in)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := secrettest.Expand(in); !bytes.Equal(out, again) {
		t.Error("two expansions differ")
	}
	var doc struct{ A, B string }
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("the expansion is not JSON: %v", err)
	}
	gen, pem := secrettest.New(25).Generic(), secrettest.New(3).PEM()
	if doc.A != "key "+gen+" and "+pem || doc.B != gen {
		t.Error("the slots are not the keys their seeds draw") // the values are never printed
	}
	if secrettest.Expanding(out) {
		t.Error("a slot is left")
	}
	if _, err := secrettest.Expand([]byte(`{{secrettest.Nope(1)}}`)); err == nil {
		t.Error("an unknown kind expanded")
	}
}
