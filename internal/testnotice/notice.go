// Package testnotice says that a group of tests was skipped, in a way a plain
// `go test ./...` shows: the go command prints nothing of a package that
// passes, so a t.Skip message alone is never seen and a skipped group would
// look like a pass. Test helpers only.
package testnotice

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FileName is the file, in the system's temporary folder (os.TempDir:
// $TMPDIR, else /tmp), that every notice is appended to.
const FileName = "ccvet-test-skips.txt"

// Path is the file every notice is appended to.
func Path() string { return filepath.Join(os.TempDir(), FileName) }

// Print says msg (one line): on the standard error of the go command that
// runs the tests where that is safe (Linux: a terminal, a pipe, or a file
// opened for appending; a file opened by `>` is not, since the go command
// writes at its own offset and would overwrite the line), and always
// appended to Path, with the time, so that a redirected run keeps it.
func Print(msg string) {
	if f, err := os.OpenFile(Path(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
		fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), msg)
		_ = f.Close()
	}
	toGoCommand(msg)
}
