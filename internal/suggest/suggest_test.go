package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"truncated-lin", "truncated-line", 1}, {"fail-on", "fail_on", 1}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"assistant", "user", "summary", "defs/content-block", "defs/message-assistant"}
	for _, c := range []struct {
		in   string
		want string
	}{
		{"asistant", "assistant"},
		{"summry", "summary"},
		{"defs/content-blok", "defs/content-block"},
		{" USER ", "user"},
		{"xyzzy", ""},
	} {
		if got := strings.Join(Closest(c.in, names, 1), ","); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
