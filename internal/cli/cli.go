// Package cli parses ccvet's command line, runs the linter and maps the outcome to an exit status.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/mattn/go-isatty"
	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/fix"
	"github.com/ccvet/ccvet/internal/hugeheap"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/memlimit"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/resume"
	"github.com/ccvet/ccvet/internal/rules"
)

// Exit statuses, the same whatever the output format.
const (
	ExitOK       = 0 // no finding reaches --fail-on
	ExitFindings = 1 // at least one finding reaches --fail-on
	ExitUsage    = 2 // usage or configuration error, or an unreadable root
	ExitInternal = 3 // ccvet itself failed
)

// usageError marks an error that is the caller's to fix.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// Main runs ccvet with args (without the program name) and returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "ccvet: internal error: %v\n%s", r, debug.Stack())
			code = ExitInternal
		}
	}()
	if len(args) > 0 {
		if c, ok := lookupCommand(args[0]); ok { // commands.go
			hugeheap.Settle() // taken back after the command's first collection
			return runSub(stderr, func() error { return c.run(args[1:], stdio{stdin, stdout, stderr}) })
		}
	}
	code, err := lintMain(args, stdin, stdout, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	return code
}

func runSub(stderr io.Writer, fn func() error) int {
	if err := fn(); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

// exitError carries a subcommand's own exit status, already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exitStatus turns a subcommand's status into runSub's error (nil for 0).
func exitStatus(code int) error {
	if code == ExitOK {
		return nil
	}
	return exitError{code}
}

func fail(stderr io.Writer, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "ccvet: "+report.Sanitize(report.MaskPath(err.Error())))
	var ue usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	var fe findingError
	if errors.As(err, &fe) {
		return ExitFindings
	}
	return ExitInternal
}

// findingError is a subcommand's verdict on the data it read (not a usage
// error, not a failure of ccvet): exit 1, like a finding.
type findingError struct{ error }

type options struct {
	format, output, color, failOn, stdinName string
	readerVersion                            string
	readerVersionFrom                        string // what set readerVersion, when not --reader-version (a configuration file)
	defaultPath                              string
	enable, disable                          []string
	strict, quiet, version, exitZero         bool
	noSnippet, allowEmpty                    bool
	jobs, maxPerFile                         int
	cfg                                      configFlags
}

// newFlagSet is the flag set of the lint command; --help prints the usage on
// stdout.
func newFlagSet(stdout, stderr io.Writer, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("ccvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.StringVarP(&o.format, "format", "f", "text", "output format: text, json, sarif or github (GitHub Actions annotations)")
	fs.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output")
	fs.StringVar(&o.color, "color", "auto", "color text output: auto, always or never (auto honours NO_COLOR and non-terminals)")
	fs.StringSliceVar(&o.enable, "enable", nil, "turn on `RULE`s (comma-separated; repeatable)")
	fs.StringSliceVar(&o.disable, "disable", nil, "turn off `RULE`s (comma-separated; repeatable)")
	fs.StringVar(&o.failOn, "fail-on", "error", "exit 1 when a finding is at least this severe: error, warning or note")
	fs.BoolVar(&o.strict, "strict", false, "report unknown-field, unknown-type and every schema problem as errors (format regression CI)")
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "check `N` files at once (default: number of CPUs); lines over 1 MiB are held one at a time, so all lines in flight take at most 512 MiB + 1 MiB per job")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no summary line, no progress on standard error")
	fs.BoolVar(&o.noSnippet, "no-snippet", false, "text output: do not show the offending line under each finding")
	fs.StringVar(&o.readerVersion, "reader-version", "", "judge what a resume loses for the reader of Claude Code `V` (default: today's, the newest ccvet has measured; messages still say what older readers do)")
	fs.StringVar(&o.stdinName, "stdin-filename", "", "report the transcript read from standard input (PATH -) as `NAME`")
	fs.StringVar(&o.defaultPath, "default-path", "", "check `PATH` when no PATH is given, instead of the home data folder (the ccvet-store hook sets .)")
	fs.BoolVar(&o.exitZero, "exit-zero", false, "exit 0 even when findings reach --fail-on (errors still exit 2 or 3)")
	fs.IntVar(&o.maxPerFile, "max-per-file", 10000, "list at most `N` findings of one rule in one file, the rest counted in one more finding (0: list all)")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "exit 0 when the paths given hold nothing to check (otherwise that is exit 2)")
	addConfigFlags(fs, &o.cfg)
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprint(stdout, `ccvet lints the data Claude Code keeps on disk.

Usage: ccvet [flags] [PATH...]
       ccvet COMMAND [flags] [ARG...]

Checks Claude Code data: transcripts, subagent transcripts, history.jsonl and
todos. PATH is a data root (a folder holding projects/), a projects/ folder, a
project folder, any folder of .jsonl transcripts, a single file, or - for
standard input. Paths in reports start with the PATH given. Without PATH:
$CLAUDE_CONFIG_DIR, else ~/.claude, and only when standard input is a
terminal and CI is not set (a hook or a script names its folder).

Commands (ccvet help COMMAND, or ccvet COMMAND --help, for more):
`+commandsUsage()+`
Flags:
`)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		fmt.Fprint(stdout, `
Exit status: 0 no finding reaches --fail-on, 1 one does, 2 usage error, an
unreadable root, nothing to check (see --allow-empty), or an output (-o,
--write-baseline) that cannot be written, is a file being checked or lies in a
checked data folder, 3 internal error; 130 or 143 when interrupted.
`)
	}
	return fs
}

// startEngine makes the lint engine on a goroutine of its own, then warms
// it (lint.Engine.Warm); the function it returns waits for the engine,
// not for the warming.
func startEngine(opts lint.Options) func() (*lint.Engine, error) {
	type made struct {
		eng *lint.Engine
		err error
	}
	ch := make(chan made, 1)
	go func() {
		eng, err := lint.New(opts)
		ch <- made{eng, err}
		if err == nil {
			eng.Warm()
		}
	}()
	return func() (*lint.Engine, error) {
		m := <-ch
		return m.eng, m.err
	}
}

func lintMain(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var o options
	fs := newFlagSet(stdout, stderr, &o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK, nil
		}
		return 0, usagef("%v (see `ccvet --help`)", err)
	}
	if o.version {
		fmt.Fprintln(stdout, "ccvet "+Version())
		return ExitOK, nil
	}
	if o.jobs < 0 {
		return 0, usagef("--jobs: want a number of files at once (0 for one per CPU), got %d", o.jobs)
	}
	if o.maxPerFile < 0 {
		return 0, usagef("--max-per-file: want a number of findings (0 to list every one), got %d", o.maxPerFile)
	}
	cfg, err := loadConfig(fs, &o, stderr)
	if err != nil {
		return 0, err
	}
	failOn, err := finding.ParseSeverity(o.failOn)
	if err != nil || failOn == finding.Off {
		return 0, usagef("--fail-on: want error, warning or note, got %q", o.failOn)
	}
	if o.readerVersion != "" {
		v, ok := resume.ParseVersion(o.readerVersion)
		if !ok {
			return 0, usagef("--reader-version: want a version such as 2.1.330, got %q", o.readerVersion)
		}
		if n := resume.Notice(v); n != "" && !o.quiet {
			from := o.readerVersionFrom
			if from == "" {
				from = "--reader-version"
			}
			fmt.Fprintf(stderr, "ccvet: %s %s: %s\n", from, v, n)
		}
	}
	switch o.format {
	case "text", "json", "sarif", "github":
	default:
		return 0, usagef("--format: want text, json, sarif or github, got %q", o.format)
	}
	switch o.color {
	case "auto", "always", "never":
	default:
		return 0, usagef("--color: want auto, always or never, got %q", o.color)
	}
	enabled := cfg.Enabled()
	for _, list := range []struct {
		ids []string
		on  bool
	}{{o.enable, true}, {o.disable, false}} {
		for _, id := range list.ids {
			id = strings.TrimSpace(id)
			if id == "" {
				continue
			}
			if _, ok := rules.Lookup(id); !ok {
				return 0, unknownRule(id)
			}
			enabled[id] = list.on
		}
	}

	paths := fs.Args()
	if len(paths) == 0 && o.defaultPath != "" {
		paths = []string{o.defaultPath}
	}
	if len(paths) == 0 {
		root, err := defaultRoot(stdin)
		if err != nil {
			return 0, err
		}
		paths = []string{root}
	}
	stdinCount := 0
	for _, p := range paths {
		if p == "-" {
			stdinCount++
		}
	}
	if stdinCount > 1 {
		return 0, usagef("standard input (-) can be named only once")
	}
	if o.stdinName != "" && stdinCount == 0 {
		return 0, usagef("--stdin-filename names standard input, but no - is among the paths")
	}
	if memlimit.Start(memlimit.Default) { // a soft limit; GOMEMLIMIT overrides it
		defer memlimit.Stop()
	}
	// The collector now waits for the soft limit: the huge-page advice
	// given at start (internal/hugeheap/early) is taken back after that
	// collection.
	hugeheap.Settle()
	// The engine and what its first lines need are made on another
	// goroutine while the files are found: none of it depends on them.
	var prog *progress
	engine := startEngine(lint.Options{Jobs: o.jobs, Enabled: enabled, Severity: cfg.Severity(), Strict: o.strict,
		ReaderVersion: o.readerVersion, Stdin: stdin, MaxPerFile: o.maxPerFile,
		Progress: func(files int, bytes int64) { prog.update(files, bytes) }})
	// Paths start with their argument, so that each names its file from
	// where ccvet runs (the repository root under pre-commit and in CI).
	found, err := layout.DiscoverFromHere(paths, o.stdinName)
	if err != nil {
		return 0, usageError{err}
	}
	for _, p := range layout.DropForeign(found) {
		if !o.quiet {
			fmt.Fprintf(stderr, "ccvet: %s: skipped: no line is a Claude Code entry\n", report.Sanitize(report.MaskPath(p)))
		}
	}
	excluded, unusedExcludes := excludePaths(found, cfg)
	if !o.quiet {
		noteUnusedExcludes(stderr, cfg, unusedExcludes, paths)
	}
	if err := nothingToCheck(found, excluded, paths, cfg, o.allowEmpty); err != nil {
		return 0, err
	}
	// Where the report and the baseline go is checked before the run, so
	// that a bad path fails fast and no output replaces an input.
	rep, err := openOutputs(&o, found)
	if err != nil {
		return 0, err
	}
	defer rep.abort()

	prog = newProgress(stderr, !o.quiet, found) // progress.go; read by the engine's workers only
	eng, err := engine()
	if err != nil {
		return 0, err
	}
	prog.begin()
	res := eng.Run(found)
	defer res.Close()
	prog.end()
	if !o.quiet {
		memNote(stderr, memlimit.Peak())
	}
	bl, err := afterRun(eng, res, cfg, &o, found, stderr)
	if err != nil {
		return 0, err
	}

	out := stdout
	if rep.w != nil {
		out = rep.w
	}
	byReal := res.Findings // fix.Count reads the files by their real paths
	var realPath map[string]string
	res.Findings, realPath = maskPaths(res.Findings)
	run := &report.Run{Version: Version(), Findings: res.Findings, Unlisted: res.Unlisted, Files: res.Files, Entries: res.Entries,
		Skipped: res.Skipped, Rules: ruleInfos(), Baseline: bl}
	switch o.format {
	case "json":
		err = report.JSON(out, run)
	case "sarif":
		err = report.SARIF(out, run)
	case "github":
		err = report.GitHub(out, run, o.quiet)
	default:
		topts := report.TextOptions{Color: useColor(o.color, out), Quiet: o.quiet}
		if !o.noSnippet {
			lines := res.Lines() // re-reads the lines findings point at
			defer lines.Close()
			topts.Snippets = realLines{lines, realPath}
			// Many findings are rendered on the run's workers, each
			// re-reading the lines of its own files.
			topts.Jobs = o.jobs
			topts.OpenSnippets = func() (report.LineSource, func()) {
				l := res.Lines()
				return realLines{l, realPath}, func() { _ = l.Close() }
			}
		}
		// The fixes are counted (each file with a fixable finding read and
		// planned) while the report is written (one goroutine, re-reading
		// the lines of the snippets): the count's line comes last.
		var safe, unsafe int
		counted := make(chan struct{})
		go func() {
			defer close(counted)
			if !o.quiet {
				safe, unsafe = fix.Count(found, byReal, o.jobs)
			}
		}()
		err = report.Text(out, run, topts)
		<-counted
		if err == nil && safe+unsafe > 0 {
			of := ""
			if res.Unlisted.Total() > 0 {
				of = " of those listed" // fix repairs the unlisted ones too
			}
			_, err = fmt.Fprintf(out, "%d%s fixable with `ccvet fix --write` (%d more with --unsafe)\n", safe, of, unsafe)
		}
	}
	if err == nil {
		err = rep.commit()
	}
	if err != nil {
		return 0, usagef("writing the report: %v", err)
	}
	if o.exitZero {
		return ExitOK, nil
	}
	for _, f := range res.Findings {
		if f.Severity >= failOn {
			return ExitFindings, nil
		}
	}
	return ExitOK, nil
}

// defaultRoot is $CLAUDE_CONFIG_DIR, else ~/.claude; it must exist. A run
// without a terminal on standard input (a hook, a script, CI) or with CI set
// never falls back to it: a hook whose folder argument was lost must not
// lint the developer's own data.
func defaultRoot(stdin io.Reader) (string, error) { return defaultRootFor(stdin, "PATH") }

// defaultRootFor is defaultRoot for a command whose folder argument is
// named what (ROOT, --root) in its usage, so that the refusal names it.
func defaultRootFor(stdin io.Reader, what string) (string, error) {
	if !interactive(stdin) {
		return "", usagef("no %s given; the home data folder ($CLAUDE_CONFIG_DIR or ~/.claude) is read only from a terminal without CI set: name the folder to check", what)
	}
	root := os.Getenv("CLAUDE_CONFIG_DIR")
	shown := root
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", usagef("no %s given and no home folder to find ~/.claude in: %v", what, err)
		}
		root = filepath.Join(home, ".claude")
		shown = "~/.claude"
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return "", usagef("no Claude Code data folder at %s (pass a %s, or set CLAUDE_CONFIG_DIR)", shown, what)
	}
	return root, nil
}

// interactive reports whether stdin is a terminal and CI is not set (tests
// replace it).
var interactive = func(stdin io.Reader) bool {
	if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
		return false
	}
	f, ok := stdin.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Version is the module version and VCS revision from the build info.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return noVersion
	}
	return versionOf(bi) // version.go
}

func ruleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, r := range rules.All() {
		out = append(out, report.RuleInfo{ID: r.ID, Severity: r.Severity, Enabled: r.Enabled, Summary: r.Summary,
			Why: r.Why, Fix: r.Fix, Bad: r.Bad, Good: r.Good})
	}
	return out
}
