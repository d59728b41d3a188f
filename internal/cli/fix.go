package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/fix"
	"github.com/ccvet/ccvet/internal/fix/plan"
	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// fixHelp ends `ccvet fix --help`.
const fixHelp = `
Without --write, fix shows the plan: one line per finding, marked [safe],
[unsafe], [manual] or [none] (-v or --diff show the exact bytes). --write
backs each file up, replaces it atomically, carrying over every line a live
writer appends meanwhile, and verifies it; --undo ID (or --undo=ID; the last
run without one) puts it back. A PATH may be a session id (found under --root).

fix and --undo refuse a file whose session is live: a sessions/<pid>.json of
its data root naming it with a running pid (always), or a change in the last
60 s (--force overrides this check only). See docs/fix.md.

Exit status: 0 nothing pending, 1 findings remain (or written, with
--exit-non-zero-on-fix), 2 usage, 3 internal error, 4 refused or aborted with
nothing written.
`

// fixCheck, if set, adds a verification step (tests make it fail).
var fixCheck func(*fix.File) error

// ExitRefused is ccvet fix's status when it refused or aborted with nothing written.
const ExitRefused = 4

type fixOptions struct {
	write, unsafe, diff, listBackups, exitOnFix, force, quiet, verbose bool
	allowEmpty                                                         bool
	format, backupDir, undo, root                                      string
	sel, ignore                                                        []string
	plan                                                               fix.Options // what fix.Plan runs with: sel and ignore checked
}

func cmdFix(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o fixOptions
	fs := subFlags("fix", stdout)
	fs.BoolVarP(&o.write, "write", "w", false, "apply the safe fixes (default: show the plan, write nothing)")
	fs.BoolVar(&o.unsafe, "unsafe", false, "include the unsafe fixes")
	fs.BoolVar(&o.diff, "diff", false, "show a byte-exact diff of the changed lines (long lines clipped around the edit)")
	fs.StringSliceVar(&o.sel, "select", nil, "fix only these `RULE`s (comma-separated; repeatable)")
	fs.StringSliceVar(&o.ignore, "ignore", nil, "never fix these `RULE`s (comma-separated; repeatable)")
	fs.StringVarP(&o.format, "format", "f", "text", "output format: text, json or sarif")
	fs.StringVar(&o.backupDir, "backup-dir", "", "keep backups in `DIR` (default $XDG_STATE_HOME/ccvet/backups, else ~/.local/state/ccvet/backups)")
	undo := undoVar(fs, &o.undo)
	fs.StringVar(&o.root, "root", "", "the data `ROOT` to look a SESSION_ID up in (default $CLAUDE_CONFIG_DIR, else ~/.claude, from a terminal)")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "list the edits of each fix")
	fs.BoolVar(&o.listBackups, "list-backups", false, "list the backup runs and exit")
	fs.BoolVar(&o.exitOnFix, "exit-non-zero-on-fix", false, "exit 1 when something was written")
	fs.BoolVar(&o.force, "force", false, "write even when a file changed in the last 60 s, or is read-only (never when its session is live)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no summary line")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "exit 0 when the paths given hold nothing to fix (otherwise that is exit 2, as for lint)")
	if err := parseSub(fs, undoArgs(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, fixHelp)
		}
		return fail(stderr, err)
	}
	if err := checkUndoArgs(undo, fs.Args()); err != nil {
		return fail(stderr, err)
	}
	code, err := runFix(&o, fs.Args(), stdin, stdout, stderr)
	if err != nil {
		if errors.Is(err, store.ErrRefused) {
			fmt.Fprintln(stderr, "ccvet fix: "+report.Sanitize(report.MaskPath(err.Error())))
			return ExitRefused
		}
		return fail(stderr, err)
	}
	return code
}

// undoArgs reads `--undo ID` as `--undo=ID`: --undo alone means the last
// run, so its value is optional, and an optional value is otherwise only
// taken with "=".
func undoArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--undo" && i+1 < len(args) && args[i+1] != "" && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, "--undo="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func ruleSet(ids []string) (map[string]bool, error) {
	m := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if _, ok := rules.Lookup(id); !ok {
			return nil, unknownRule(id)
		}
		m[id] = true
	}
	return m, nil
}

func runFix(o *fixOptions, paths []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	switch o.format {
	case "text", "json", "sarif":
	default:
		return 0, usagef("--format: want text, json or sarif, got %q", o.format)
	}
	st, err := backupStore(o.backupDir, o.force)
	if err != nil {
		return 0, err
	}
	if code, done, err := listOrUndo(st, o.listBackups, o.undo, stdout); done {
		return code, err
	}
	dir := writeDir(st, o.backupDir, o.write)
	sel, err := ruleSet(o.sel)
	if err != nil {
		return 0, err
	}
	ign, err := ruleSet(o.ignore)
	if err != nil {
		return 0, err
	}
	if len(paths) == 0 {
		root, err := defaultRoot(stdin)
		if err != nil {
			return 0, err
		}
		paths = []string{root}
	}
	for i, p := range paths {
		if p == "-" {
			return 0, usagef("ccvet fix repairs files in place; standard input (-) cannot be fixed")
		}
		if _, err := os.Lstat(p); err != nil && layout.IsUUID(p) {
			t, err := findSession(p, o.root, stdin)
			if err != nil {
				return 0, err
			}
			paths[i] = t
		}
	}
	found, err := layout.DiscoverFromHere(paths, "")
	if err != nil {
		return 0, usageError{err}
	}
	// Paths that hold nothing to check (an empty folder, a store whose
	// only transcript is a FIFO): exit 2 and say why, as lint does, not
	// an empty plan and exit 0.
	if err := nothingToCheck(found, 0, paths, nil, o.allowEmpty); err != nil {
		return 0, err
	}
	if o.write {
		for _, f := range found.Files {
			roots := []string{f.Root}
			if f.InLayout {
				roots = append(roots, f.Project)
			}
			for _, r := range roots {
				if r != "" && store.Inside(dir, r) {
					return 0, usagef("--backup-dir %s is inside the checked Claude data folder %s; keep backups outside it", dir, r)
				}
			}
		}
	}
	o.plan = fix.Options{Unsafe: o.unsafe, Select: sel, Ignore: ign, Check: fixCheck}
	res, err := fix.Plan(found, o.plan)
	if err != nil {
		return 0, err
	}
	var failed []*fix.File
	for _, f := range res.Files {
		if f.Err != nil && len(f.Chosen) > 0 {
			failed = append(failed, f)
		}
	}
	var (
		run  *store.Run
		done []store.Written
		werr error
	)
	if o.write && len(failed) == 0 {
		var changes []store.Change
		for _, f := range res.Files {
			if f.Changed() {
				changes = append(changes, f.Change())
			}
		}
		run, done, werr = st.Write("fix", Version(), changes)
	}
	written := len(done)
	// The plan quotes the ids it re-links, the bytes it inserts and the
	// lines it changes: a key there (an id the secret rule does not scan)
	// is masked as lint masks it.
	mw := &maskingWriter{w: stdout}
	switch o.format {
	case "json":
		err = report.JSON(mw, &report.Run{Version: Version(), Findings: res.Findings, Files: res.Lint.Files,
			Entries: res.Lint.Entries, Skipped: res.Lint.Skipped, Rules: ruleInfos()})
	case "sarif":
		err = report.SARIF(mw, &report.Run{Version: Version(), Findings: sarifFixes(res.Findings, o),
			Files: res.Lint.Files, Entries: res.Lint.Entries, Skipped: res.Lint.Skipped, Rules: ruleInfos()})
	default:
		err = printPlan(mw, res, o, done, run, st.Dir)
	}
	if err == nil {
		err = mw.flush()
	}
	if err != nil {
		return 0, err
	}
	for _, d := range done {
		if d.Note != "" {
			fmt.Fprintf(stderr, "ccvet fix: %s: %s\n", report.Sanitize(report.MaskPath(displayPath(res, d.Path))), report.Sanitize(report.MaskText(d.Note)))
		}
	}
	if werr != nil {
		if run != nil && o.format != "text" {
			fmt.Fprintf(stderr, "ccvet fix: %d file(s) written before this; undo: %s\n", written, undoCommand("fix", run.ID(), st.Dir))
		}
		return 0, werr
	}
	for _, f := range failed {
		fmt.Fprintf(stderr, "ccvet fix: %s: %s\n", report.Sanitize(report.MaskPath(f.File.Path)), report.Sanitize(report.MaskPath(f.Err.Error())))
	}
	if len(failed) > 0 {
		if o.write {
			fmt.Fprintln(stderr, "ccvet fix: nothing written")
		}
		return ExitRefused, nil
	}
	if written > 0 && o.exitOnFix {
		return ExitFindings, nil
	}
	if !o.write {
		for _, f := range res.Files {
			if len(f.Edits) > 0 {
				return ExitFindings, nil // fixes pending
			}
		}
	}
	remaining := res.Lint.Findings
	if written > 0 {
		remaining = res.Final
	}
	for _, f := range remaining {
		if f.Severity >= finding.Error {
			return ExitFindings, nil
		}
	}
	return ExitOK, nil
}

// sarifFixes keeps on each finding only the fixes SARIF should carry: the
// ones this run would apply (safe, unsafe with --unsafe, of the rules
// --select and --ignore leave in).
func sarifFixes(fs []finding.Finding, o *fixOptions) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	copy(out, fs)
	for i := range out {
		fx := out[i].Fix
		allowed := fx != nil && o.plan.Wants(out[i].Rule) &&
			(fx.Safety == string(rules.FixSafe) || o.unsafe && fx.Safety == string(rules.FixUnsafe))
		if !allowed || len(fx.Edits) == 0 {
			out[i].Fix = nil
		}
	}
	return out
}

// displayPath is how the report names the file at OS path p.
func displayPath(res *fix.Result, p string) string {
	for _, f := range res.Files {
		if f.File.OSPath == p {
			return f.File.Path
		}
	}
	return p
}

// shellWord quotes s for a POSIX shell when it needs it; control
// characters are escaped (the word is then shown, not runnable).
func shellWord(s string) string {
	s = report.Sanitize(s)
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func listBackups(st *store.Store, w io.Writer) (int, error) {
	ms, err := store.List(st.Dir)
	if err != nil {
		return 0, err
	}
	if len(ms) == 0 {
		fmt.Fprintf(w, "no backups in %s\n", report.Sanitize(st.Dir))
		return ExitOK, nil
	}
	for _, m := range ms {
		if m.Incomplete != "" {
			fmt.Fprintf(w, "%s  (%s)\n", report.Sanitize(m.ID), report.Sanitize(m.Incomplete))
			continue
		}
		edits := 0
		for _, f := range m.Files {
			edits += len(f.Edits)
		}
		kind := ""
		if m.Kind != "" && m.Kind != "fix" {
			kind = "  " + report.Sanitize(m.Kind)
		}
		fmt.Fprintf(w, "%s  %s%s  %d file(s), %d edit(s)\n", report.Sanitize(m.ID), report.Sanitize(m.Created), kind, len(m.Files), edits)
		for _, f := range m.Files {
			state := ""
			switch f.State {
			case "pending":
				state = "  (cut off around its replace: --undo finishes or refuses it)"
			case "undone":
				state = "  (restored by --undo)"
			}
			fmt.Fprintf(w, "    %s%s\n", report.Sanitize(report.MaskPath(f.Path)), state)
		}
	}
	return ExitOK, nil
}

func printPlan(w io.Writer, res *fix.Result, o *fixOptions, done []store.Written, run *store.Run, backupDir string) error {
	written := len(done)
	var b bytes.Buffer
	counts := map[rules.FixClass]int{}
	files := 0
	for _, f := range res.Files {
		path := report.Sanitize(report.MaskPath(f.File.Path))
		chosen := map[int]bool{}
		for _, i := range f.Chosen {
			chosen[i] = true
		}
		dropped := map[int]bool{}
		for _, i := range f.Dropped {
			dropped[i] = true
		}
		shown := false
		for i, fx := range f.Fixes {
			if fx.Safety == rules.FixNone {
				counts[fx.Safety]++
				continue
			}
			note := ""
			switch {
			case fx.Fixable():
				counts[fx.Safety]++
				switch {
				case !o.plan.Wants(fx.Rule):
					note = " (left out by --select or --ignore)"
				case dropped[i]:
					note = " (overlaps another fix: run again)"
				case fx.Safety == rules.FixUnsafe && !o.unsafe:
					note = " (needs --unsafe)"
				case !chosen[i]:
					note = " (waits for the byte-level fixes; planned again in the next pass)"
				}
			default:
				counts[rules.FixManual]++
			}
			shown = true
			fmt.Fprintf(&b, "%s:%d: [%s] %s: %s%s\n", path, fx.Line, fx.Safety, fx.Rule, report.Sanitize(fx.Message), note)
			if o.verbose && (chosen[i] || note == " (needs --unsafe)") {
				for _, e := range fx.Edits {
					fmt.Fprintf(&b, "    %s\n", report.Sanitize(plan.Describe(f.Orig, e)))
				}
			}
		}
		for _, st := range f.Later {
			fmt.Fprintf(&b, "%s: pass %d: line %d: [%s] %s: %s\n", path, st.Pass, st.Fix.Line, st.Fix.Safety, st.Fix.Rule,
				report.Sanitize(st.Fix.Message))
			if o.verbose {
				for _, d := range st.Edits {
					fmt.Fprintf(&b, "    %s\n", report.Sanitize(d))
				}
			}
		}
		if f.Err != nil {
			fmt.Fprintf(&b, "%s: not fixed: %s\n", path, report.Sanitize(f.Err.Error()))
		}
		if shown {
			files++
		}
		if o.diff && f.Changed() {
			writeDiff(&b, f)
		}
	}
	// The findings of files fix could not plan on (unreadable, too large,
	// a folder): their manual steps, not nothing.
	planned := map[string]bool{}
	for _, f := range res.Files {
		planned[f.File.Path] = true
	}
	last := ""
	for _, x := range res.Findings {
		if planned[x.Path] || x.Fix == nil || x.Fix.Safety != string(rules.FixManual) || !o.plan.Wants(x.Rule) {
			continue
		}
		counts[rules.FixManual]++
		if x.Path != last {
			files++
			last = x.Path
		}
		fmt.Fprintf(&b, "%s:%d: [%s] %s: %s\n", report.Sanitize(report.MaskPath(x.Path)), x.Line, x.Fix.Safety, x.Rule,
			report.Sanitize(x.Fix.Message))
	}
	if !o.quiet {
		fmt.Fprintf(&b, "%d safe, %d unsafe, %d manual fix(es) in %d file(s); %d finding(s) are data, not damage\n",
			counts[rules.FixSafe], counts[rules.FixUnsafe], counts[rules.FixManual], files, counts[rules.FixNone])
		switch {
		case written > 0:
			printWritten(&b, "fix", done, run, backupDir, "")
		case !o.write && (counts[rules.FixSafe] > 0 || counts[rules.FixUnsafe] > 0 && o.unsafe):
			fmt.Fprintln(&b, "nothing written: run with --write to apply")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeDiff prints the changed lines of f, old then new, clipped around the edits.
func writeDiff(b *bytes.Buffer, f *fix.File) {
	fmt.Fprintf(b, "--- %s\n+++ %s (fixed)\n", report.Sanitize(report.MaskPath(f.File.Path)), report.Sanitize(report.MaskPath(f.File.Path)))
	lineStart := func(d []byte, off int64) int64 {
		i := bytes.LastIndexByte(d[:off], '\n')
		return int64(i + 1)
	}
	lineEnd := func(d []byte, off int64) int64 {
		if off >= int64(len(d)) {
			return int64(len(d))
		}
		i := bytes.IndexByte(d[off:], '\n')
		if i < 0 {
			return int64(len(d))
		}
		return off + int64(i) + 1
	}
	// group edits touching the same lines
	es := f.Edits
	sh := edit.NewShifter(es)
	counted, lines := int64(0), 1 // the lines that start before counted
	for k := 0; k < len(es); {
		lo := lineStart(f.Orig, es[k].Offset)
		hi := lineEnd(f.Orig, es[k].End())
		if es[k].Length > 0 && es[k].End() > 0 && f.Orig[es[k].End()-1] == '\n' {
			hi = es[k].End()
		}
		j := k + 1
		for j < len(es) && es[j].Offset < hi {
			hi = lineEnd(f.Orig, es[j].End())
			j++
		}
		nlo := sh.Shift(lo)
		nhi := sh.ShiftEnd(hi)
		if lo < counted { // never: the groups go down the file
			counted, lines = 0, 1
		}
		lines += bytes.Count(f.Orig[counted:lo], []byte{'\n'})
		counted = lo
		fmt.Fprintf(b, "@@ line %d @@\n", lines)
		focus := es[k].Offset - lo
		for _, l := range splitKeep(f.Orig[lo:hi]) {
			fmt.Fprintf(b, "-%s\n", clipLine(l, focus))
			focus -= int64(len(l))
		}
		focus = es[k].Offset - lo
		for _, l := range splitKeep(f.New[nlo:nhi]) {
			fmt.Fprintf(b, "+%s\n", clipLine(l, focus))
			focus -= int64(len(l))
		}
		k = j
	}
}

func splitKeep(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// clipLine shows a line with its newline marked, cut to about 160 bytes
// around focus; control characters are escaped.
func clipLine(l []byte, focus int64) string {
	nl := ""
	if bytes.HasSuffix(l, []byte{'\n'}) {
		l = l[:len(l)-1]
	} else {
		nl = "  (no newline)"
	}
	l = report.MaskSecrets(l)
	const side = 80
	pre, post := "", ""
	if focus < 0 {
		focus = 0
	}
	if focus > int64(len(l)) {
		focus = int64(len(l))
	}
	lo, hi := focus-side, focus+side
	if lo <= 0 {
		lo = 0
	} else {
		pre = "…"
	}
	if hi >= int64(len(l)) {
		hi = int64(len(l))
	} else {
		post = "…"
	}
	return pre + escapeBytes(l[lo:hi]) + post + nl
}

// escapeBytes shows b as it is, except invalid UTF-8, the characters
// report.NeedsEscape names (a real U+FFFD is shown) and the '[' of "##["
// (a GitHub Actions workflow command), which become \xNN.
func escapeBytes(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1, r != utf8.RuneError && report.NeedsEscape(r),
			r == '[' && report.ClosesLegacyCommand(b, i): // "##[": no workflow command in a CI log
			for _, c := range b[i : i+n] {
				fmt.Fprintf(&sb, "\\x%02x", c)
			}
		default:
			sb.Write(b[i : i+n])
		}
		i += n
	}
	return sb.String()
}
