package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

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
func loadConfig(fs *flag.FlagSet, o *options, stderr io.Writer) (*config.Config, error) {
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
		// A file found by walking up is applied only when it is the
		// user's own: one that anyone may write, or another user's, could
		// turn every check off. A FIFO would hang the run.
		st, err := os.Stat(found)
		if err == nil {
			err = config.Trusted(st)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ccvet: ignoring the configuration %s: %s\n", report.Sanitize(display), err)
			return nil, nil
		}
	}
	c, err := config.Load(osPath, display)
	if err != nil {
		return nil, usageError{err}
	}
	if !o.quiet {
		// Which file shapes the run is never a surprise.
		fmt.Fprintf(stderr, "ccvet: using the configuration %s\n", report.Sanitize(display))
	}
	if c.Strict != nil && !fs.Changed("strict") {
		o.strict = *c.Strict
	}
	if c.FailOn != nil && !fs.Changed("fail-on") {
		o.failOn = c.FailOn.String()
	}
	if c.ReaderVersion != "" && !fs.Changed("reader-version") {
		o.readerVersion = c.ReaderVersion
		o.readerVersionFrom = report.Sanitize(display) + ": reader-version"
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
// files count as skipped. It returns the number of files excluded, and the
// exclude patterns that matched no path found (nor a file DropForeign
// skipped before).
func excludePaths(found *layout.Result, c *config.Config) (int, []*config.Glob) {
	if c == nil || len(c.Exclude) == 0 {
		return 0, nil
	}
	// used: which patterns matched a path. excludedBy is c.Excluded that
	// also marks them: once a path is known excluded, a pattern already
	// marked is not tried on it.
	used := make([]bool, len(c.Exclude))
	excludedBy := func(paths ...string) bool {
		hit := false
		for i, g := range c.Exclude {
			if hit && used[i] {
				continue
			}
			for _, p := range paths {
				if g.Match(p) {
					used[i], hit = true, true
					break
				}
			}
		}
		return hit
	}
	excluded := 0
	files := found.Files[:0]
	for _, f := range found.Files {
		if excludedBy(f.Path, f.Key) {
			found.Skipped++
			if !f.Context {
				excluded++
			}
			continue
		}
		files = append(files, f)
	}
	found.Files = files
	problems := found.Problems[:0]
	key := found.Keys()
	for _, p := range found.Problems {
		if !excludedBy(p.Path, key(p.Path)) {
			problems = append(problems, p)
		}
	}
	found.Problems = problems
	links := found.Links[:0]
	for _, p := range found.Links {
		if !excludedBy(p.Path) {
			links = append(links, p)
		}
	}
	found.Links = links
	for _, p := range found.Foreign {
		excludedBy(p, key(p))
	}
	var unused []*config.Glob
	for i, g := range c.Exclude {
		if !used[i] {
			unused = append(unused, g)
		}
	}
	return excluded, unused
}

// noteUnusedExcludes says on stderr which exclude patterns matched
// nothing (a typo, a folder since removed), as a line that changes neither
// the exit status nor the report. Only a run whose paths are all folders
// says it: one given files (the per-file pre-commit hook) or standard
// input does not see what the files not given would match.
func noteUnusedExcludes(w io.Writer, c *config.Config, unused []*config.Glob, paths []string) {
	if len(unused) == 0 || len(paths) == 0 {
		return
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); p == "-" || err != nil || !fi.IsDir() {
			return
		}
	}
	for _, g := range unused {
		where := c.Path
		if g.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", c.Path, g.Line, g.Column)
		}
		fmt.Fprintf(w, "ccvet: %s: exclude pattern %s matched nothing\n", report.Sanitize(where), report.Sanitize(strconv.Quote(g.Pattern)))
	}
}

// afterRun applies the configuration's excludes and ignores, then the
// baseline, to the findings of res. key maps a reported path to the path
// relative to the data root, which globs and baselines also match.
//
// A run over files only (a pre-commit hook) counts as unmatched only the
// baseline entries of its files: the others are out of its sight.
func afterRun(eng *lint.Engine, res *lint.Result, c *config.Config, o *options, found *layout.Result, stderr io.Writer) (*report.BaselineCounts, error) {
	key := found.Keys()
	maskMessages(res.Findings)
	fs := res.Findings
	if c != nil {
		kept, unused := c.Filter(fs, eng.On, key)
		for _, f := range unused {
			if g, ok := eng.Grade(f); ok {
				kept = append(kept, g)
			}
		}
		finding.Sort(kept)
		fs = kept
	}
	res.Findings = fs
	res.Unlisted = lint.Unlisted(fs)
	talk := o.format == "text" && !o.quiet
	bkey := maskedKey(key) // a baseline records no key in a path either
	var b *baseline.File
	switch {
	case o.cfg.writeBaseline != "":
		b = baseline.New(fs, bkey)
		data, err := b.Marshal()
		if err != nil {
			return nil, err
		}
		if err := writeTarget("--write-baseline", o.cfg.writeBaseline, data); err != nil {
			return nil, err
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
	var inSight func(string) bool
	if len(found.Roots) == 0 {
		keys := map[string]bool{}
		for _, f := range found.Files {
			if !f.Context {
				keys[bkey(f.Path)] = true
			}
		}
		inSight = func(p string) bool { return keys[p] }
	}
	kept, out := b.Apply(fs, bkey, inSight)
	res.Findings = kept
	res.Unlisted = lint.Unlisted(kept)
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

// maskMessages masks, in each finding's message and its related places'
// messages, what rule secret finds there ('*' for each byte), before any
// report or baseline shows them. A message quotes what it judges: an entry
// type, a field name, a timestamp, a parentUuid. The rule does not scan
// those (ids, names, member keys), so a key written there was printed,
// even in a snippet-free format.
func maskMessages(fs []finding.Finding) {
	for i := range fs {
		f := &fs[i]
		f.Message = report.MaskPath(f.Message)
		f.UUID = report.MaskText(f.UUID) // the JSON report's "uuid"
		for j := range f.Related {
			f.Related[j].Message = report.MaskPath(f.Related[j].Message)
		}
	}
}
