//go:build windows

package cli

import (
	"testing"

	"github.com/ccvet/ccvet/internal/testnotice"
)

// TestUnixOnlyNotice says, once where `go test ./...` shows it, what does
// not run on Windows: the test files built for Unix only (FIFOs, Unix
// permissions, the real Claude Code and its pseudo-terminal, which the
// oracle drives on Unix only) and the tests that skip here (symbolic links,
// a mode of 0, the docs' shell examples).
func TestUnixOnlyNotice(t *testing.T) {
	const msg = "ccvet: on Windows the tests that need Unix permissions, FIFOs, symbolic links, a shell or the real Claude Code are not built or skip (docs/development.md)"
	testnotice.Print(msg)
	t.Skip(msg)
}
