package cli

import (
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/report"
)

// undoFlag is the value of fix's and redact's --undo. pflag keeps a
// repeated flag's last value and says nothing: `--undo A --undo B` would
// undo B, `--undo A --undo` the last run, and `--undo --undo` pass; given
// counts the times it is set, and checkUndoArgs refuses more than one.
type undoFlag struct {
	val   *string
	given int
}

// undoVar defines --undo on fs, into p.
func undoVar(fs *flag.FlagSet, p *string) *undoFlag {
	u := &undoFlag{val: p}
	fs.Var(u, "undo", "restore the files of backup run `ID` (--undo ID or --undo=ID; alone: the last run)")
	fs.Lookup("undo").NoOptDefVal = "last"
	return u
}

func (u *undoFlag) String() string {
	if u == nil || u.val == nil {
		return ""
	}
	return *u.val
}

func (u *undoFlag) Set(s string) error {
	*u.val = s
	u.given++
	return nil
}

// Type is pflag's string type, so that help shows --undo as before.
func (u *undoFlag) Type() string { return "string" }

// checkUndoArgs refuses what `--undo` must not be given, the same for fix
// and redact: a second --undo, a path as its value, or a PATH beside it
// (`--undo ID` is read as `--undo=ID` by undoArgs).
func checkUndoArgs(u *undoFlag, rest []string) error {
	if u.given > 1 {
		return usagef("--undo given %d times; give it once: --undo (the last run) or --undo ID", u.given)
	}
	undo := *u.val
	if undo == "" {
		return nil
	}
	if strings.ContainsAny(undo, `/\`) {
		return usagef("--undo takes a backup run ID (see --list-backups), not a path: %s", undo)
	}
	if len(rest) > 0 {
		return usagef("--undo takes one run ID and no PATH (got %s); write --undo ID or --undo=ID", strings.Join(rest, " "))
	}
	return nil
}

// backupStore is the backup store of a fix or redact run: backupDir, or
// the default folder.
func backupStore(backupDir string, force bool) (*store.Store, error) {
	dir := backupDir
	if dir == "" {
		d, err := store.DefaultDir()
		if err != nil {
			return nil, usageError{err}
		}
		dir = d
	}
	return &store.Store{Dir: dir, Force: force}, nil
}

// writeDir is where a run that writes puts its backups: for a --backup-dir
// given, that folder with a link in its path resolved, so that the check
// that it lies outside the data folder and the printed undo command name
// where the backups really go. st.Dir becomes it.
func writeDir(st *store.Store, given string, write bool) string {
	if write && given != "" {
		st.Dir = store.Real(st.Dir)
	}
	return st.Dir
}

// listOrUndo does --list-backups or --undo ID, which fix and redact share
// (one manifest format, one undo); done is false when neither was asked.
func listOrUndo(st *store.Store, list bool, undo string, out io.Writer) (code int, done bool, err error) {
	// The runs name the files they changed: a path that holds a key (a
	// folder named after a cwd that holds one) is masked as lint masks it.
	stdout := &maskingWriter{w: out}
	defer func() {
		if ferr := stdout.flush(); err == nil {
			err = ferr
		}
	}()
	switch {
	case list:
		code, err = listBackups(st, stdout)
		return code, true, err
	case undo != "":
		restored, err := st.Undo(undo)
		for _, d := range restored {
			fmt.Fprintln(stdout, report.Sanitize(report.MaskPath(d)))
		}
		return ExitOK, true, err
	}
	return 0, false, nil
}

// printWritten says what a fix or redact run wrote, in one format for both:
// "wrote N file(s)[, carrying over B bytes appended meanwhile]; backup run
// ID in RUNDIR", what the backups hold when it must be said (note), and
// the command that undoes the run.
func printWritten(w io.Writer, cmd string, done []store.Written, run *store.Run, backupDir, note string) {
	var carried int64
	for _, d := range done {
		carried += d.Carried
	}
	more := ""
	if carried > 0 {
		more = fmt.Sprintf(", carrying over %d bytes appended meanwhile", carried)
	}
	if note != "" {
		note = " (" + note + ")"
	}
	fmt.Fprintf(w, "wrote %d file(s)%s; backup run %s in %s%s\nundo: %s\n", len(done), more, report.Sanitize(run.ID()),
		report.Sanitize(run.Dir()), note, undoCommand(cmd, run.ID(), backupDir))
}

// undoCommand is the command that undoes run id of backup folder dir with
// ccvet cmd (fix or redact), as it can be typed.
func undoCommand(cmd, id, dir string) string {
	return "ccvet " + cmd + " --undo " + shellWord(id) + " --backup-dir " + shellWord(dir)
}
