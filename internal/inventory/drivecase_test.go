package inventory

import "testing"

// TestDriveCaseOnly: a folder that differs from the one Claude Code writes
// only in a drive letter's case is not a listing problem; anything else is.
func TestDriveCaseOnly(t *testing.T) {
	for _, c := range []struct {
		cwd, cur, folder string
		want             bool
	}{
		{`d:\x`, "D--x", "d--x", true},
		{`D:\x`, "D--x", "d--x", true},
		{`d:\x`, "D--x", "D--y", false},
		{`/home/x`, "-home-x", "-Home-x", false},
		{`d:\x`, "D--x", "E--x", false},
	} {
		if got := driveCaseOnly(c.cwd, c.cur, c.folder); got != c.want {
			t.Errorf("driveCaseOnly(%q, %q, %q) = %v, want %v", c.cwd, c.cur, c.folder, got, c.want)
		}
	}
}
