package ccversion

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.330":               "2.1.330",
		" v2.1.330\n":           "2.1.330",
		"2.1.330 (Claude Code)": "2.1.330",
		"2.1.17-beta.2":         "2.1.17-beta.2",
		"2.1.17+build.5":        "2.1.17",
		"2.1.17-rc.1+b":         "2.1.17-rc.1",
		"007.1.2":               "7.1.2",
	} {
		v, ok := Parse(in)
		if !ok || v.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, v, ok, want)
		}
	}
	for _, in := range []string{"", "2.1", "2.1.0.1", "2.1.x", "2.1.-1", "2.1.+1", "2..1", "banana", "2.1.17-", "99999999999.0.0", "latest"} {
		if v, ok := Parse(in); ok {
			t.Errorf("Parse(%q) = %v, want no version", in, v)
		}
	}
}

func TestOrder(t *testing.T) {
	got := []string{"", "2.1.17", "banana", "2.1", "2.1.9", "1.0.0", "2.1.17-beta.2", "2.1.17-beta.10",
		"2.1.17-alpha", "2.1.17-1", "2.1.17-alpha.1", "10.0.0", "v2.1.9", "1.0.128", "2.0.76", "2.1.110", "2.1.330", "2.1.332"}
	slices.SortFunc(got, Compare)
	want := "1.0.0 1.0.128 2.0.76 2.1.9 v2.1.9 2.1.17-1 2.1.17-alpha 2.1.17-alpha.1 2.1.17-beta.2 2.1.17-beta.10 2.1.17 " +
		"2.1.110 2.1.330 2.1.332 10.0.0 2.1 banana "
	if s := strings.Join(got, " "); s != want {
		t.Errorf("order:\n got %q\nwant %q", s, want)
	}
	for i := range got {
		for j := range got {
			if (Compare(got[i], got[j]) < 0) != (i < j) || Less(got[i], got[j]) != (i < j) {
				t.Errorf("Compare(%q, %q) = %d at %d, %d", got[i], got[j], Compare(got[i], got[j]), i, j)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	v := func(s string) Version { x, _ := Parse(s); return x }
	if !v("2.1.94").Less(v("2.1.330")) || v("2.1.330").Less(v("2.1.94")) || v("2.1.330").Less(v("2.1.330")) {
		t.Error("numeric order")
	}
	if !v("2.1.330-beta").Less(v("2.1.330")) || !v("2.1.329").Less(v("2.1.330-beta")) {
		t.Error("a pre-release comes after the release before it and before its own")
	}
	if !(Version{}).Zero() || v("0.0.1").Zero() || v("0.0.0-a").Zero() {
		t.Error("Zero")
	}
	if (Version{Major: 2, Minor: 1, Patch: 3}).Compare(v("2.1.3+x")) != 0 {
		t.Error("build metadata orders nothing")
	}
}
