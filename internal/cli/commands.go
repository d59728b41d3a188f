package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"
)

// stdio is what a subcommand reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one subcommand. Adding a subcommand is one entry in commands:
// `ccvet help`, `ccvet help NAME`, `ccvet NAME --help` and the usage text
// follow from it.
type command struct {
	name    string
	args    string // what follows the name in the usage line
	summary string // one line: what the subcommand does (lower case, no period)
	run     func(args []string, io stdio) error
}

// commands are the subcommands, in the order the help lists them; filled in
// by init because help refers back to the table.
var commands []command

func init() {
	commands = []command{
		{"rules", "[--format text|json|markdown]", "list the rules with their severity, default state and summary",
			func(a []string, s stdio) error { return cmdRules(a, s.out) }},
		{"explain", "RULE...", "explain what rules catch, why it matters and how to fix it",
			func(a []string, s stdio) error { return cmdExplain(a, s.out, s.err) }},
		{"schema", "[TYPE]", "print the JSON Schema of an entry type, or list the types",
			func(a []string, s stdio) error { return cmdSchema(a, s.out) }},
		{"stats", "[--format text|json] [--since VERSION] [PATH...]", "count entries per Claude Code version, with unknown types and fields (format drift)",
			func(a []string, s stdio) error { return cmdStats(a, s.in, s.out, s.err) }},
		{"init", "[--force]", "write a commented " + ".ccvet.yaml" + " with every setting at its default",
			func(a []string, s stdio) error { return cmdInit(a, s.out, s.err) }},
		{"fix", "[--write] [--unsafe] [--diff] [-v] [--root ROOT] PATH|SESSION_ID... | --undo [ID] | --list-backups",
			"repair the damage lint finds by byte splices: plan by default, --write applies the safe fixes after a backup",
			func(a []string, s stdio) error { return exitStatus(cmdFix(a, s.in, s.out, s.err)) }},
		{"redact", "[--write] [--backup-dir DIR] [--undo [ID]] [--list-backups] PATH...",
			"replace every copy of the secrets under PATH, in every file of its data root, by [REDACTED:<rule>:<fingerprint>]: plan by default, --write with fix's backup and undo",
			func(a []string, s stdio) error { return exitStatus(cmdRedact(a, s.in, s.out, s.err)) }},
		{"request", "[--root ROOT] SESSION[:ENTRY]", "rebuild from the request ledger the API request that produced an assistant entry",
			func(a []string, s stdio) error { return cmdRequest(a, s.in, s.out) }},
		{"sessions", "[--format text|json] [--project TEXT] [--sort KEY] [--limit N] [--paths] [--now TIME] [--recover ID --out DIR] [ROOT]",
			"list every session of a data root: whether /resume lists it and why not, what was lost and what survives of it, and what cleanup deletes next",
			func(a []string, s stdio) error { return cmdSessions(a, s.in, s.out) }},
		{"resume", "[--check] [--reader-version V] [--format text|json] (TRANSCRIPT | [--root ROOT] SESSION_ID)", "show what `claude --resume` rebuilds from a transcript and sends, and what it leaves out (--check: a preflight exit status)",
			func(a []string, s stdio) error { return cmdResume(a, s.in, s.out, s.err) }},
		{"version", "", "print ccvet's version",
			func(a []string, s stdio) error { return cmdVersion(a, s.out) }},
		{"help", "[COMMAND]", "show the help of ccvet or of one of its commands",
			func(a []string, s stdio) error { return cmdHelp(a, s.out, s.err) }},
	}
}

// lookupCommand finds a subcommand by name.
func lookupCommand(name string) (*command, bool) {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i], true
		}
	}
	return nil, false
}

// subFlags is the flag set of a subcommand: --help prints its summary,
// usage line and flags on stdout (exit 0); an error is one line on stderr.
func subFlags(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ccvet "+name, flag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		c, _ := lookupCommand(name)
		var summary, args string
		if c != nil {
			summary, args = upperFirst(c.summary)+".", c.args
		}
		fmt.Fprintf(stdout, "%s\n\nUsage: %s\n", summary, strings.TrimSpace("ccvet "+name+" "+args))
		if fs.HasFlags() {
			fmt.Fprint(stdout, "\nFlags:\n")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// parseSub parses a subcommand's flags: flag.ErrHelp after --help (exit
// 0), else a one-line usage error that points at the help.
func parseSub(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v (see `%s --help`)", err, fs.Name())
	}
	return nil
}

// cmdVersion prints the version, as --version does.
func cmdVersion(args []string, stdout io.Writer) error {
	fs := subFlags("version", stdout)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(stdout, "ccvet "+Version())
	return nil
}

// cmdHelp prints the main help, or a command's.
func cmdHelp(args []string, stdout, stderr io.Writer) error {
	fs := subFlags("help", stdout)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		var o options
		newFlagSet(stdout, stderr, &o).Usage()
		return nil
	case 1:
	default:
		return usagef("help takes one COMMAND")
	}
	name := fs.Arg(0)
	if name == "lint" {
		return cmdHelp(nil, stdout, stderr) // the default command
	}
	c, ok := lookupCommand(name)
	if !ok {
		return usagef("no command %q; the commands are %s (ccvet without a command lints)", name, commandNames())
	}
	err := c.run([]string{"--help"}, stdio{out: stdout, err: stderr})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func commandNames() string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// commandsUsage is the list of commands in the main help.
func commandsUsage() string {
	var b strings.Builder
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	return b.String()
}
