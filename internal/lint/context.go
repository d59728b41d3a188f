package lint

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// withoutContext drops the findings on the paths of context files
// (contextPaths): they were read only so that the project and store
// checks of the files asked for see the rest of their folder.
func withoutContext(all []finding.Finding, ctx map[string]bool) []finding.Finding {
	if len(ctx) == 0 {
		return all
	}
	out := all[:0]
	for _, fd := range all {
		if !ctx[fd.Path] {
			out = append(out, fd)
		}
	}
	return out
}

// contextPaths are the paths of the files read only for the checks of
// others (layout.File.Context), which are not reported on; a path that
// also names a file asked for is not one.
func contextPaths(files []*model.File) map[string]bool {
	ctx := map[string]bool{}
	for _, f := range files {
		if f.Context {
			ctx[f.Path] = true
		}
	}
	for _, f := range files {
		if !f.Context {
			delete(ctx, f.Path)
		}
	}
	return ctx
}
