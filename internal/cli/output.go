package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccvet/ccvet/internal/atomicfile"
	"github.com/ccvet/ccvet/internal/config"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/outpath"
	"github.com/ccvet/ccvet/internal/report"
)

// reportOut is where -o sends the report: a temporary file beside the
// target, renamed over it once the report is whole (so a crash never
// leaves half a report in place of the old one), or, for a target that is
// not a regular file (a FIFO, /dev/stdout), the target itself.
type reportOut struct {
	w       io.Writer
	pending *atomicfile.Pending
	direct  *os.File
}

// openOutputs checks the -o and --write-baseline paths against what the
// run checks and opens the report; with no -o it returns an empty reportOut.
func openOutputs(o *options, found *layout.Result) (*reportOut, error) {
	for _, out := range []struct{ flag, path string }{{"--output", o.output}, {"--write-baseline", o.cfg.writeBaseline}} {
		if out.path == "" {
			continue
		}
		if err := outpath.Check(out.path, found); err != nil {
			return nil, usagef("%s: %v", out.flag, err)
		}
		if err := outpath.Writable(out.path); err != nil {
			return nil, usagef("%s: %v", out.flag, err)
		}
	}
	if o.output != "" && o.cfg.writeBaseline != "" && sameTarget(o.output, o.cfg.writeBaseline) {
		// Both would be written, the report last: the baseline lost.
		return nil, usagef("--output and --write-baseline name the same file %s", o.output)
	}
	if o.output == "" {
		return &reportOut{}, nil
	}
	return openTarget("--output", o.output)
}

// sameTarget reports whether writes at a and b reach the same regular file
// (or would create the same one). Devices and FIFOs, which are written
// directly, never count.
func sameTarget(a, b string) bool {
	ra, rb := outpath.Resolve(a), outpath.Resolve(b)
	sa, errA := os.Stat(ra)
	sb, errB := os.Stat(rb)
	switch {
	case errA == nil && errB == nil:
		return sa.Mode().IsRegular() && os.SameFile(sa, sb)
	case errA == nil || errB == nil:
		return false
	}
	return ra == rb
}

// openTarget opens the output path p (named by flag in errors): a
// temporary file beside what p resolves to, or, when that is not a regular
// file (a FIFO, /dev/stdout, /dev/null), the file itself: a device is
// never replaced.
func openTarget(flag, p string) (*reportOut, error) {
	r := &reportOut{}
	target := outpath.Resolve(p)
	st, err := os.Stat(target)
	if err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, usagef("%s: %v", flag, err)
		}
		r.w, r.direct = f, f
		return r, nil
	}
	perm := os.FileMode(0o644)
	if err == nil {
		perm = st.Mode().Perm()
	}
	pf, err := atomicfile.Create(target, perm)
	if err != nil {
		return nil, usagef("%s: %s: cannot write beside it: %v", flag, p, unwrapPath(err))
	}
	r.w, r.pending = pf, pf
	return r, nil
}

// writeTarget writes data at the output path p (see openTarget).
func writeTarget(flag, p string, data []byte) error {
	r, err := openTarget(flag, p)
	if err != nil {
		return err
	}
	defer r.abort()
	if _, err := r.w.Write(data); err != nil {
		return usagef("%s: %v", flag, err)
	}
	if err := r.commit(); err != nil {
		return usagef("%s: %v", flag, err)
	}
	return nil
}

// commit puts the report in place.
func (r *reportOut) commit() error {
	switch {
	case r.pending != nil:
		p := r.pending
		r.pending = nil
		return p.Commit()
	case r.direct != nil:
		f := r.direct
		r.direct = nil
		return f.Close()
	}
	return nil
}

// abort drops a report not committed; the target keeps its old content.
func (r *reportOut) abort() {
	if r.pending != nil {
		r.pending.Abort()
	}
	if r.direct != nil {
		r.direct.Close()
	}
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// nothingToCheck turns a run that would check no file into a usage error
// that says why, unless allowed: a green result with nothing checked is
// the worst a linter can give. Paths that could not be read are findings
// of their own and keep the run going; links not followed are counted in
// the reason.
func nothingToCheck(found *layout.Result, excluded int, paths []string, cfg *config.Config, allow bool) error {
	for _, f := range found.Files {
		if !f.Context {
			return nil
		}
	}
	if allow || len(found.Problems) > 0 {
		return nil
	}
	where := strings.Join(paths, " ")
	if len(paths) > 3 {
		where = fmt.Sprintf("the %d paths given", len(paths))
	}
	var why []string
	if other := found.Skipped - excluded - len(found.Links); other > 0 {
		why = append(why, countOf(other, "file is", "files are")+" not Claude Code data ccvet checks")
	}
	if excluded > 0 {
		why = append(why, countOf(excluded, "file is", "files are")+" excluded by "+cfg.Path)
	}
	if n := len(found.Links); n > 0 {
		why = append(why, countOf(n, "link was", "links were")+" not followed")
	}
	if len(why) == 0 {
		why = append(why, "no files")
	}
	hint := ""
	for _, p := range paths {
		if b := backupProjects(p); len(b) > 0 {
			hint += "; " + strings.Join(b, "; ")
		}
	}
	return usagef("nothing to check in %s: %s%s (pass --allow-empty if that is expected)", where, strings.Join(why, ", "), hint)
}

// backupProjects names the projects.bak-* folders beside the projects/ of a
// data root (path itself, or the root of a path that is its projects/
// folder) that hold transcripts, which a walk of the root skips: "ROOT/
// projects.bak-2026-11-20 holds 12 transcripts: check it with `ccvet ROOT
// ROOT/projects.bak-2026-11-20`". It reads folder listings only (two
// levels, no link followed), at most 16 such folders.
func backupProjects(path string) []string {
	root := path
	if filepath.Base(filepath.Clean(path)) == "projects" {
		root = filepath.Dir(filepath.Clean(path))
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	seen := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "projects.bak") || seen == 16 {
			continue
		}
		seen++
		bak := filepath.Join(root, e.Name())
		n := 0
		folders, _ := os.ReadDir(bak)
		for _, f := range folders {
			if !f.IsDir() {
				if strings.HasSuffix(f.Name(), ".jsonl") && f.Type().IsRegular() {
					n++
				}
				continue
			}
			files, _ := os.ReadDir(filepath.Join(bak, f.Name()))
			for _, t := range files {
				if strings.HasSuffix(t.Name(), ".jsonl") && t.Type().IsRegular() {
					n++
				}
			}
		}
		if n == 0 {
			continue
		}
		shown := filepath.ToSlash(bak)
		out = append(out, fmt.Sprintf("%s holds %s: check it with `ccvet %s %s`", report.Sanitize(shown),
			countOf(n, "transcript", "transcripts"), report.Sanitize(filepath.ToSlash(root)), report.Sanitize(shown)))
	}
	return out
}
