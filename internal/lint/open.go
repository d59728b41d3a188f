package lint

import (
	"github.com/ccvet/ccvet/internal/readonly"
)

// afterOpen, when set (tests), is called with each file checkLines opens.
var afterOpen func(path string)

// openReadOnly opens a file to check (see readonly.Open), to be read up to
// its size at open: bytes appended later are left to the next run, so a
// file that a writer keeps growing cannot keep ccvet reading.
func openReadOnly(path string, follow bool) (*readonly.Handle, error) {
	return readonly.OpenHandle(path, follow)
}
