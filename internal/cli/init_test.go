package cli

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/config"
)

// TestInitExamplesUncomment: every commented example of `ccvet init`
// becomes valid configuration when its # is removed, alone or all together
// (issue 13, item 6).
func TestInitExamplesUncomment(t *testing.T) {
	example := regexp.MustCompile(`^#(  .*)$`)
	lines := strings.Split(defaultConfig, "\n")
	var groups [][]int // runs of example lines
	for i, l := range lines {
		if !example.MatchString(l) {
			continue
		}
		if n := len(groups); n > 0 && groups[n-1][len(groups[n-1])-1] == i-1 {
			groups[n-1] = append(groups[n-1], i)
		} else {
			groups = append(groups, []int{i})
		}
	}
	if len(groups) != 3 {
		t.Fatalf("want examples under rules, exclude and ignore, got %d groups", len(groups))
	}
	uncomment := func(only int) string {
		out := append([]string(nil), lines...)
		for g, idx := range groups {
			if only >= 0 && g != only {
				continue
			}
			for _, i := range idx {
				out[i] = example.ReplaceAllString(out[i], "$1")
			}
		}
		return strings.Join(out, "\n")
	}
	for g := -1; g < len(groups); g++ {
		src := uncomment(g)
		c, err := config.Parse(config.FileName, []byte(src))
		if err != nil {
			t.Errorf("examples of group %d uncommented: %v\n%s", g, err, src)
			continue
		}
		if g == -1 && (len(c.Rules) != 3 || len(c.Exclude) != 2 || len(c.Ignores) != 1) {
			t.Errorf("all examples uncommented: %d rules, %d excludes, %d ignores", len(c.Rules), len(c.Exclude), len(c.Ignores))
		}
	}
}

// TestYAMLErrorPlace: a YAML syntax error names the line and column at
// fault, not the start of the enclosing block (issue 13, item 6).
func TestYAMLErrorPlace(t *testing.T) {
	dir := cfgIsolate(t)
	good := abs(t, filepath.Join(fixtures, "blank-line", "good"))
	src := strings.Replace(defaultConfig, "rules:\n#  timestamp-order: on", "rules: {}\n  timestamp-order: on", 1)
	want := 0
	for i, l := range strings.Split(src, "\n") {
		if l == "  timestamp-order: on" {
			want = i + 1
		}
	}
	cfgWrite(t, filepath.Join(dir, config.FileName), src)
	_, stderr, code := run(t, "", good)
	prefix := ".ccvet.yaml:" + strconv.Itoa(want) + ":3: invalid YAML: "
	if code != ExitUsage || !strings.HasPrefix(stderr, "ccvet: "+prefix) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, %q; want %q", code, stderr, prefix)
	}
	for _, c := range []struct{ src, want string }{
		{"strict: false\nfail-on: error\n  rules: x\n", ":3:"},
		{"strict: false\nexclude:\n  - \"a\n  - b\n", ":3:"},
		{"fail-on: [error\n", ":1:"},
		{"strict: false\n\trules: {}\n", ":2:"},
	} {
		_, err := config.Parse("c.yaml", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), "c.yaml"+c.want) {
			t.Errorf("%q: %v, want c.yaml%s", c.src, err, c.want)
		}
	}
}
