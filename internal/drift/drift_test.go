package drift

import (
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/jsontree"
)

func TestShape(t *testing.T) {
	v, _, err := jsontree.Decode([]byte(`{"message":{"content":[{"type":"text"},{"type":"text","citations":[]}]},"a/b":{"c~d":[[1]]},"s":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]string{
		"/message/content/1/citations": "/message/content/*/citations",
		"/a~1b/c~0d/0/0":               "/a~1b/c~0d/*/*",
		"/message":                     "/message",
		"/message/content/7/x":         "/message/content/*/x",
		"/s/0":                         "/s/0",
	} {
		if got := shape(v, ptr); got != want {
			t.Errorf("shape(%s) = %s, want %s", ptr, got, want)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	got := []string{"", "2.1.17", "banana", "2.1.9", "1.0.0", "2.1.17-beta.2", "2.1.17-beta.10", "2.1.17-alpha", "10.0.0"}
	sort.Slice(got, func(i, j int) bool { return ccversion.Less(got[i], got[j]) })
	want := "1.0.0 2.1.9 2.1.17-alpha 2.1.17-beta.2 2.1.17-beta.10 2.1.17 10.0.0 banana "
	if strings.Join(got, " ") != want {
		t.Errorf("order: %q\nwant   %q", strings.Join(got, " "), want)
	}
}
