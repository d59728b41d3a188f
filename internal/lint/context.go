package lint

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// withoutContext drops the findings on context files (layout.File.Context):
// they were read only so that the project and store checks of the files
// asked for see the rest of their folder. A path that also names a file
// asked for keeps its findings.
func withoutContext(all []finding.Finding, files []*model.File) []finding.Finding {
	ctx := contextPaths(files)
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
// others, which are not reported on.
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
