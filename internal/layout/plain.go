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
// cannot be read is left out. A lint has the list already where its walk
// covered the data root (Root.PlainListed).
func PlainCopies(dir string) []PlainCopy {
	var out []PlainCopy
	for _, sub := range []string{"file-history", "paste-cache", "projects"} {
		base := filepath.Join(dir, sub)
		if !isDir(base) {
			continue
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
			if kind, ok := plainKind(rel); ok {
				out = append(out, PlainCopy{OSPath: p, Rel: rel, Kind: kind})
			}
			return nil
		})
	}
	sortPlain(out)
	return out
}

// plainKind says whether the regular file at rel (slash-separated, from a
// data root) is a plain copy, and of what.
func plainKind(rel string) (Kind, bool) {
	top, rest, ok := strings.Cut(rel, "/")
	if !ok {
		return Other, false
	}
	switch top {
	case "file-history":
		return FileHistory, true
	case "paste-cache":
		return PasteCache, true
	case "projects":
		// projects/<enc>/<sessionId>/tool-results/...
		parts := strings.SplitN(rest, "/", 4)
		if len(parts) == 4 && parts[2] == "tool-results" {
			return ToolResult, true
		}
	}
	return Other, false
}

func sortPlain(pcs []PlainCopy) {
	sort.Slice(pcs, func(i, j int) bool { return pcs[i].Rel < pcs[j].Rel })
}
