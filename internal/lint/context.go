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
	ctx := map[string]bool{}
	for _, f := range files {
		if f.Context {
			ctx[f.Path] = true
		}
	}
	if len(ctx) == 0 {
		return all
	}
	for _, f := range files {
		if !f.Context {
			delete(ctx, f.Path)
		}
	}
	out := all[:0]
	for _, fd := range all {
		if !ctx[fd.Path] {
			out = append(out, fd)
		}
	}
	return out
}
