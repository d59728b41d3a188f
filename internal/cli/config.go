package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/baseline"
	"github.com/ccvet/ccvet/internal/config"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// configFlags are the flags about .ccvet.yaml and baselines.
type configFlags struct {
	file, baseline, writeBaseline string
	none                          bool
}

func addConfigFlags(fs *flag.FlagSet, c *configFlags) {
	fs.StringVar(&c.file, "config", "", "read settings from `FILE` (default: the "+config.FileName+" found from the current folder up)")
	fs.BoolVar(&c.none, "no-config", false, "read no "+config.FileName)
	fs.StringVar(&c.baseline, "baseline", "", "report only findings that the baseline `FILE` does not record")
	fs.StringVar(&c.writeBaseline, "write-baseline", "", "record this run's findings in `FILE` (then report none of them)")
}

// loadConfig reads the configuration file, if any, and lets it set what the
// command line did not: flags win over the file.
func loadConfig(fs *flag.FlagSet, o *options) (*config.Config, error) {
	cf := o.cfg
	if cf.none && cf.file != "" {
		return nil, usagef("--config and --no-config exclude each other")
	}
	if cf.baseline != "" && cf.writeBaseline != "" {
		return nil, usagef("--baseline and --write-baseline exclude each other")
	}
	if cf.none {
		return nil, nil
	}
	osPath, display := cf.file, filepath.ToSlash(cf.file)
	if osPath == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, nil // no current folder, no configuration to find
		}
		home, _ := os.UserHomeDir()
		found, err := config.Find(cwd, home)
		if err != nil {
			return nil, usageError{err}
		}
		if found == "" {
			return nil, nil
		}
		osPath, display = found, filepath.ToSlash(found)
		if rel, err := filepath.Rel(cwd, found); err == nil {
			display = filepath.ToSlash(rel)
		}
	}
	c, err := config.Load(osPath, display)
	if err != nil {
		return nil, usageError{err}
	}
	if c.Strict != nil && !fs.Changed("strict") {
		o.strict = *c.Strict
	}
	if c.FailOn != nil && !fs.Changed("fail-on") {
		o.failOn = c.FailOn.String()
	}
	if c.ReaderVersion != "" && !fs.Changed("reader-version") {
		o.readerVersion = c.ReaderVersion
	}
	if fs.Changed("strict") && o.strict {
		// --strict on the command line turns its rules on whatever the file says.
		kept := c.Rules[:0]
		for _, r := range c.Rules {
			if rule, ok := rules.Lookup(r.ID); ok && rule.Strict && !r.On {
				continue
			}
			kept = append(kept, r)
		}
		c.Rules = kept
	}
	return c, nil
}

// excludePaths drops the files and problems on excluded paths; excluded
// files count as skipped.
func excludePaths(found *layout.Result, c *config.Config) {
	if c == nil || len(c.Exclude) == 0 {
		return
	}
	files := found.Files[:0]
	for _, f := range found.Files {
		if c.Excluded(f.Path) {
			found.Skipped++
			continue
		}
		files = append(files, f)
	}
	found.Files = files
	problems := found.Problems[:0]
	for _, p := range found.Problems {
		if !c.Excluded(p.Path) {
			problems = append(problems, p)
		}
	}
	found.Problems = problems
}

// afterRun applies the configuration's excludes and ignores, then the
// baseline, to the findings of res.
func afterRun(eng *lint.Engine, res *lint.Result, c *config.Config, o *options, stderr io.Writer) (*report.BaselineCounts, error) {
	fs := res.Findings
	if c != nil {
		kept, unused := c.Filter(fs, eng.On)
		for _, f := range unused {
			if g, ok := eng.Grade(f); ok {
				kept = append(kept, g)
			}
		}
		finding.Sort(kept)
		fs = kept
	}
	res.Findings = fs
	talk := o.format == "text" && !o.quiet
	var b *baseline.File
	switch {
	case o.cfg.writeBaseline != "":
		b = baseline.New(fs)
		if err := baseline.Write(o.cfg.writeBaseline, b); err != nil {
			return nil, usagef("--write-baseline: %v", err)
		}
		if talk {
			fmt.Fprintf(stderr, "ccvet: wrote %d findings to the baseline %s\n", len(fs), report.Sanitize(o.cfg.writeBaseline))
		}
	case o.cfg.baseline != "":
		var err error
		if b, err = baseline.Read(o.cfg.baseline, o.cfg.baseline); err != nil {
			return nil, usageError{err}
		}
	default:
		return nil, nil
	}
	kept, out := b.Apply(fs)
	res.Findings = kept
	if talk && o.cfg.baseline != "" {
		fmt.Fprintf(stderr, "ccvet: the baseline %s hid %d findings; %d of its findings match nothing now",
			report.Sanitize(o.cfg.baseline), out.Matched, out.Unmatched)
		if out.Unmatched > 0 {
			fmt.Fprint(stderr, " (fixed? write it again with --write-baseline)")
		}
		fmt.Fprintln(stderr)
	}
	return &report.BaselineCounts{Matched: out.Matched, Unmatched: out.Unmatched}, nil
}
