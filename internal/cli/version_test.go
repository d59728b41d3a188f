package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	rev := "f60b1559e81d0123456789abcdef0123456789ab"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.modified", Value: modified}}
	}
	cases := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"go install module@version", "v0.1.0", nil, "v0.1.0"},
		{"checkout at a tag", "v0.1.0", vcs("false"), "v0.1.0 (f60b1559e81d)"},
		{"dirty checkout at a tag", "v0.1.0+dirty", vcs("true"), "v0.1.0+dirty (f60b1559e81d)"},
		{"checkout between tags", "v0.0.0-20261122003255-f60b1559e81d", vcs("false"), "v0.0.0-20261122003255-f60b1559e81d"},
		{"dirty, between tags", "v0.0.0-20261122003255-f60b1559e81d+dirty", vcs("true"), "v0.0.0-20261122003255-f60b1559e81d+dirty"},
		{"-buildvcs=false", "(devel)", nil, "(built without version information)"},
		{"old Go: devel with a stamp", "(devel)", vcs("true"), "(devel) (f60b1559e81d-dirty)"},
		{"no version at all", "", nil, "(built without version information)"},
		{"short revision", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "(devel) (abc)"},
	}
	for _, c := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/ccvet/ccvet", Version: c.version}, Settings: c.settings}
		if got := versionOf(bi); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	out, _, code := run(t, "", "--version")
	if code != ExitOK || !strings.HasPrefix(out, "ccvet ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if strings.Contains(out, "(devel)\n") {
		t.Errorf("--version: %q; say there is no version information", out)
	}
	cmd, _, code := run(t, "", "version")
	if code != ExitOK || cmd != out {
		t.Errorf("ccvet version: exit %d, %q; --version says %q", code, cmd, out)
	}
	if _, stderr, code := run(t, "", "version", "x"); code != ExitUsage || strings.Count(stderr, "\n") != 1 {
		t.Errorf("ccvet version x: exit %d, %q", code, stderr)
	}
}
