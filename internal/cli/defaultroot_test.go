package cli

import (
	"strings"
	"testing"
)

// TestDefaultRootNamesTheArgument: a command that refuses to fall back to the
// home data folder (no terminal) names the argument its usage gives for it:
// `ccvet request SESSION` was told "no PATH given" although it takes none.
func TestDefaultRootNamesTheArgument(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no PATH given"},
		{[]string{"stats"}, "no PATH given"},
		{[]string{"sessions"}, "no ROOT given"},
		{[]string{"request", "0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77"}, "no --root given"},
	} {
		_, stderr, code := run(t, "", c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("ccvet %v: exit %d, %q; want exit %d and %q", c.args, code, stderr, ExitUsage, c.want)
		}
	}
}
