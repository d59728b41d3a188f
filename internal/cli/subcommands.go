package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/schema"
)

// cmdRules prints the rule catalogue.
func cmdRules(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("ccvet rules", flag.ContinueOnError)
	format := fs.StringP("format", "f", "text", "text or json")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	all := rules.All()
	switch *format {
	case "json":
		type jr struct {
			ID       string `json:"id"`
			Severity string `json:"severity"`
			Enabled  bool   `json:"enabled"`
			Strict   bool   `json:"strict,omitempty"`
			Summary  string `json:"summary"`
			Why      string `json:"why"`
			Bad      string `json:"bad"`
			Good     string `json:"good"`
			Fix      string `json:"fix"`
			Since    string `json:"since"`
		}
		out := []jr{}
		for _, r := range all {
			out = append(out, jr{r.ID, r.Severity.String(), r.Enabled, r.Strict, r.Summary, r.Why, r.Bad, r.Good, r.Fix, r.Since})
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tSEVERITY\tDEFAULT\tSUMMARY")
		for _, r := range all {
			state := "on"
			if !r.Enabled {
				state = "off"
				if r.Strict {
					state = "strict"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, state, r.Summary)
		}
		return tw.Flush()
	}
	return usagef("rules --format: want text or json, got %q", *format)
}

// cmdSchema prints an embedded schema, or lists them.
func cmdSchema(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("ccvet schema", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stdout, strings.Join(schema.Names(), "\n"))
		return nil
	}
	if fs.NArg() > 1 {
		return usagef("schema takes one TYPE")
	}
	src, ok := schema.Source(fs.Arg(0))
	if !ok {
		return usagef("no schema named %q (run `ccvet schema` for the list)", fs.Arg(0))
	}
	_, err := stdout.Write(src)
	return err
}
