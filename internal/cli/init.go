package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/ccvet/ccvet/internal/atomicfile"
	"github.com/ccvet/ccvet/internal/config"
)

// defaultConfig is what `ccvet init` writes: every setting at its default,
// with the others shown in comments. It must load (TestInit checks).
const defaultConfig = `# ccvet configuration. ccvet reads the .ccvet.yaml of the current folder or
# of the nearest folder above it (the search stops at a repository's root, at
# your home folder, or at the filesystem root); --config FILE reads another,
# --no-config none. Command-line flags win over this file. An unknown key or
# a wrong value is an error (exit 2) naming the line.

# Report unknown-field, unknown-type and every schema problem as errors: a
# format regression test for a new Claude Code version (the same as --strict).
strict: false

# The least severe finding that makes ccvet exit 1: error, warning or note
# (the same as --fail-on).
fail-on: error

# Judge what a resume loses for the reader of this Claude Code version (the
# same as --reader-version); by default each file is judged for today's
# reader, the newest ccvet has measured, and messages say what older do.
# reader-version: 2.1.110

# Turn rules on or off, or report them at another severity: on, off, error,
# warning or note. ` + "`ccvet rules`" + ` lists them with their defaults.
# Uncomment an entry to use it (remove the # only).
rules:
#  timestamp-order: on
#  dangling-leaf: off
#  unknown-field: note

# Paths not checked, as globs matched against the paths ccvet reports (which
# start with the PATH argument) and against the paths relative to the data
# root (projects/<folder>/<session>.jsonl, history.jsonl). ** spans folders;
# a pattern without / matches a name at any depth; a folder's pattern covers
# what is inside.
# Checks that link files (orphan-parent, ...) do not see excluded files.
exclude:
#  - "projects/-tmp-*"
#  - "agent-*.jsonl"

# Findings not reported: a path glob, the rules, and why (required). An ignore
# that hides nothing in a run is reported (rule unused-ignore), so that it
# goes once the problem is gone.
ignore:
#  - path: "projects/-home-me-old/**"
#    rules: [orphan-parent, dangling-leaf]
#    reason: parents lost by an old Claude Code version; kept as history
`

// cmdInit writes the default configuration to .ccvet.yaml in the current folder.
func cmdInit(args []string, stdout, stderr io.Writer) error {
	flags := subFlags("init", stdout)
	force := flags.Bool("force", false, "replace an existing "+config.FileName)
	if err := parseSub(flags, args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return usagef("init takes no PATH: it writes %s in the current folder", config.FileName)
	}
	var err error
	if *force {
		err = atomicfile.Write(config.FileName, []byte(defaultConfig), 0o644)
	} else {
		err = atomicfile.WriteNew(config.FileName, []byte(defaultConfig), 0o644)
	}
	if errors.Is(err, fs.ErrExist) {
		return usagef("%s exists; use --force to replace it", config.FileName)
	}
	if err != nil {
		return usagef("init: %v", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", config.FileName)
	return nil
}
