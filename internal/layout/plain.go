package layout

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// PlainCopy is one plain file under a data root that keeps a copy of what
// a session saw or wrote.
type PlainCopy struct {
	OSPath string
	Rel    string // slash-separated path from the data root
	Kind   Kind   // FileHistory, ToolResult or PasteCache
}

// PlainCopies lists, under data root dir, the file-history backups
// (file-history/<sessionId>/*), the tool results kept aside
// (projects/<enc>/<sessionId>/tool-results/*) and the pastes
// (paste-cache/*), sorted by Rel. Links are never followed; a folder that
// cannot be read is left out.
func PlainCopies(dir string) []PlainCopy {
	var out []PlainCopy
	walk := func(sub string, kind Kind, want func(rel string) bool) {
		base := filepath.Join(dir, sub)
		if !isDir(base) {
			return
		}
		_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			if want(rel) {
				out = append(out, PlainCopy{OSPath: p, Rel: rel, Kind: kind})
			}
			return nil
		})
	}
	all := func(string) bool { return true }
	walk("file-history", FileHistory, all)
	walk("paste-cache", PasteCache, all)
	walk("projects", ToolResult, func(rel string) bool {
		// projects/<enc>/<sessionId>/tool-results/...
		parts := strings.Split(rel, "/")
		return len(parts) >= 5 && parts[3] == "tool-results"
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}
