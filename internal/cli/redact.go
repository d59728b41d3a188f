package cli

import (
	"errors"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/redact"
	"github.com/ccvet/ccvet/internal/report"
)

// redactHelp ends `ccvet redact --help`.
const redactHelp = `
Without --write, redact shows the plan: each secret found under PATH (its
rule and fingerprint, never its value), and every file of the data root that
holds a copy, with where and how many. --write replaces every copy by
[REDACTED:<rule>:<fingerprint>] with fix's machinery: each file is backed up,
replaced atomically and verified (a session that is live is never written);
--undo puts the files back. The backups hold the secrets: delete the run's
folder (--list-backups names it) once you no longer need to undo.

Exit status: 0 nothing to redact (or written), 1 secrets found (plan mode),
2 usage or nothing to search under PATH (--allow-empty: 0), 3 internal error,
4 refused or aborted with nothing written.
`

type redactOptions struct {
	write, listBackups, force, quiet, allowEmpty bool
	backupDir, undo                              string
}

func cmdRedact(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o redactOptions
	fs := subFlags("redact", stdout)
	fs.BoolVarP(&o.write, "write", "w", false, "replace the secrets (default: show the plan, write nothing)")
	fs.StringVar(&o.backupDir, "backup-dir", "", "keep backups in `DIR` (default $XDG_STATE_HOME/ccvet/backups, else ~/.local/state/ccvet/backups)")
	undo := undoVar(fs, &o.undo)
	fs.BoolVar(&o.listBackups, "list-backups", false, "list the backup runs and exit")
	fs.BoolVar(&o.force, "force", false, "write even when a file changed in the last 60 s (never when its session is live)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no summary line")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "exit 0 when the paths given hold nothing to search (otherwise that is exit 2, as for lint)")
	if err := parseSub(fs, undoArgs(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, redactHelp)
		}
		return fail(stderr, err)
	}
	if err := checkUndoArgs(undo, fs.Args()); err != nil {
		return fail(stderr, err)
	}
	code, err := runRedact(&o, fs.Args(), stdin, stdout)
	if err != nil {
		var re *redact.ReadError
		if errors.Is(err, store.ErrRefused) || errors.As(err, &re) {
			fmt.Fprintln(stderr, "ccvet redact: "+report.Sanitize(report.MaskPath(err.Error())))
			return ExitRefused
		}
		return fail(stderr, err)
	}
	return code
}

func runRedact(o *redactOptions, paths []string, stdin io.Reader, stdout io.Writer) (int, error) {
	st, err := backupStore(o.backupDir, o.force)
	if err != nil {
		return 0, err
	}
	if code, done, err := listOrUndo(st, o.listBackups, o.undo, stdout); done {
		return code, err
	}
	dir := writeDir(st, o.backupDir, o.write)
	if len(paths) == 0 {
		root, err := defaultRoot(stdin)
		if err != nil {
			return 0, err
		}
		paths = []string{root}
	}
	for _, p := range paths {
		if p == "-" {
			return 0, usagef("ccvet redact changes files in place; standard input (-) cannot be redacted")
		}
	}
	// Paths start with the PATH given, as lint's and fix's do.
	found, err := layout.DiscoverFromHere(paths, "")
	if err != nil {
		return 0, usageError{err}
	}
	plan, err := redact.Build(found)
	if err != nil {
		return 0, err
	}
	// Paths that hold nothing to search (an empty folder, a typo'd glob's
	// leftovers): exit 2 and say why, as lint and fix do, not "no secret
	// found" and exit 0.
	if plan.Searched == 0 {
		if err := nothingToCheck(found, 0, paths, nil, o.allowEmpty); err != nil {
			return 0, err
		}
	}
	if o.write {
		for _, f := range plan.Files {
			if f.Root != "" && store.Inside(dir, f.Root) {
				return 0, usagef("--backup-dir %s is inside the Claude data folder %s; keep backups outside it", dir, f.Root)
			}
		}
	}
	var (
		run  *store.Run
		done []store.Written
	)
	if o.write && len(plan.Files) > 0 {
		changes := make([]store.Change, 0, len(plan.Files))
		for _, f := range plan.Files {
			c, err := redactChange(f)
			if err != nil {
				return 0, err
			}
			changes = append(changes, c)
		}
		// One run for every file, gated together: a live session or a
		// changed file refuses the run before any file is written. The
		// manifest keeps no edit records: their old bytes would hold the
		// secrets (the backups do, and the docs say so).
		run, done, err = st.Write("redact", Version(), changes)
		if err != nil {
			if len(done) > 0 && run != nil {
				return 0, fmt.Errorf("%w (%d file(s) already redacted; undo: %s)",
					err, len(done), undoCommand("redact", run.ID(), st.Dir))
			}
			return 0, err
		}
	}
	// The plan names the files: one named after a key (or in a folder
	// named after a cwd that holds one) is masked as lint masks it.
	mw := &maskingWriter{w: stdout}
	printRedactPlan(mw, plan, o, done, run, st.Dir)
	if err := mw.flush(); err != nil {
		return 0, err
	}
	if len(plan.Secrets) > 0 && !o.write {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// redactChange is one file's redaction as the store writes it: the planned
// bytes, and what was replaced (fingerprints and lines, never a value).
func redactChange(f *redact.File) (store.Change, error) {
	out, err := edit.Bytes(f.Orig, f.Edits)
	if err != nil {
		return store.Change{}, err
	}
	var notes []store.FixNote
	for _, p := range f.Places {
		notes = append(notes, store.FixNote{Pass: 1, Line: p.Line, Rule: "secret", Safety: "redact",
			Message: "secret " + p.Fingerprint + " replaced"})
	}
	if f.Rehashed > 0 {
		notes = append(notes, store.FixNote{Pass: 1, Rule: "secret", Safety: "redact",
			Message: fmt.Sprintf("%d request-ledger hash(es) of redacted messages replaced by the new hash", f.Rehashed)})
	}
	return store.Change{Path: f.OSPath, Orig: f.Orig, New: out, Fixes: notes}, nil
}

func printRedactPlan(w io.Writer, plan *redact.Plan, o *redactOptions, done []store.Written, run *store.Run, backupDir string) {
	if len(plan.Secrets) == 0 {
		if !o.quiet {
			fmt.Fprintln(w, "no secret found")
		}
		return
	}
	for _, s := range plan.Secrets {
		fmt.Fprintf(w, "%s %s (gitleaks rule %s): %d cop%s in %d file(s) -> %s\n", s.Name, s.Fingerprint, s.Rule,
			s.Copies, plural(s.Copies, "y", "ies"), s.Files, s.Placeholder())
	}
	fmt.Fprintln(w)
	for _, f := range plan.Files {
		fmt.Fprintf(w, "%s\n", report.Sanitize(report.MaskPath(f.Path)))
		for _, p := range f.Places {
			fmt.Fprintf(w, "  %d:%d  %s\n", p.Line, p.Column, p.Fingerprint)
		}
		if f.Rehashed > 0 {
			fmt.Fprintf(w, "  %d request-ledger hash(es) of redacted messages replaced by the new hash\n", f.Rehashed)
		}
	}
	if o.quiet {
		return
	}
	fmt.Fprintln(w)
	switch {
	case len(done) > 0:
		fmt.Fprintf(w, "%d secret(s) redacted\n", len(plan.Secrets))
		printWritten(w, "redact", done, run, backupDir, "the backups hold the secrets")
	default:
		fmt.Fprintf(w, "%d secret(s) in %d file(s); nothing written (ccvet redact --write replaces them; revoke them too)\n",
			len(plan.Secrets), len(plan.Files))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
