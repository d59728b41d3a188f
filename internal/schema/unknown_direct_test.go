package schema

import (
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

func TestFastUnknownDirect(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"a\xffb\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\\ud800\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"a\\u0000\":1,\"é\":2,\"a/~b\":3}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xed\xa0\x80\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xc0\xaf\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xf4\x90\x80\x80\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\\uDBFF\\uDFFF\":1,\"\\uD800\\u0041\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\u2028\":1,\"\\t\":1,\"\x7f\":1}",
	} {
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		val, ok := decodeLine([]byte(line))
		if !ok {
			t.Fatal("decode")
		}
		fv := v.FastHistory(&tr)
		got, gok := v.FastUnknownHistory(&tr)
		ref := v.ValidateHistory(val)
		if d := agreeUnknown(fv, got, gok, ref, !utf8.Valid([]byte(line))); d != "" {
			t.Errorf("%q: %s\n got %#v\n ref %#v", line, d, got, ref)
		}
	}
}

// TestMemberPlaces: the places of members at every depth, items and keys
// that look like numbers told apart, found in one walk; a key node that is
// not a member's key is not placed.
func TestMemberPlaces(t *testing.T) {
	var tr jsontree.Tree
	line := `{"a":[{"b":{"0":{"zz":1}}},{"c d":2}],"e/f~":{"g":[[{"h":3}]]}}`
	if err := tr.Parse([]byte(line)); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{ // pointer -> field name, shape
		"/a/0/b/0/zz":     {"a[0].b[\"0\"].zz", "/a/*/b/0/zz"},
		"/a/1/c d":        {"a[1][\"c d\"]", "/a/*/c d"},
		"/e~1f~0/g/0/0/h": {"[\"e/f~\"].g[0][0].h", "/e~1f~0/g/*/*/h"},
	}
	// The keys of the innermost members, by their text.
	var keys []int
	for i := range tr.Nodes {
		if s, _ := tr.Str(i); tr.Nodes[i].Kind == jsontree.String && (s == "zz" || s == "c d" || s == "h") {
			keys = append(keys, i)
		}
	}
	places, ok := memberPlaces(&tr, keys)
	if !ok || len(places) != 3 {
		t.Fatalf("memberPlaces: %v, %+v", ok, places)
	}
	for _, pl := range places {
		w, found := want[pl.ptr]
		if !found || w[0] != pl.name || w[1] != pl.shape {
			t.Errorf("place %+v, want %v", pl, w)
		}
	}
	// An empty key on the way: declined.
	if err := tr.Parse([]byte(`{"":{"zz":1}}`)); err != nil {
		t.Fatal(err)
	}
	if _, ok := memberPlaces(&tr, []int{3}); ok {
		t.Error("an empty key on the way: placed")
	}
}
