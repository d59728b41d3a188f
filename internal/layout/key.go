package layout

import (
	"os"
	"path/filepath"
	"strings"
)

// setKeys gives every file its Key: the path relative to the data root it
// belongs to when one can be told from the path (a projects/ folder, or a
// folder holding projects/ for history.jsonl and todos/), else the path
// relative to the current folder, else the display path. The same file
// gets the same key whether it was named alone, found under its data root
// or under a folder above it, from wherever ccvet runs below the folder
// the key is relative to.
func setKeys(res *Result) {
	cwds := workDirs()
	for _, f := range res.Files {
		f.Key = keyOf(f, cwds)
	}
}

// workDirs is the current folder, as given and with its links resolved
// (walked paths are resolved).
func workDirs() []string {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	out := []string{cwd}
	if real, err := filepath.EvalSymlinks(cwd); err == nil && real != cwd {
		out = append(out, real)
	}
	return out
}

func keyOf(f *File, cwds []string) string {
	if f.Stdin {
		return f.Path
	}
	abs, err := filepath.Abs(f.OSPath)
	if err != nil {
		return f.Path
	}
	if f.InLayout && f.Project != "" {
		if rel, ok := under(filepath.Dir(filepath.Dir(f.Project)), abs); ok {
			return rel // projects/<enc>/...
		}
	}
	root := f.Root
	if root == "" {
		switch f.Kind {
		case History:
			root = filepath.Dir(abs)
		case Todos:
			root = filepath.Dir(filepath.Dir(abs))
		}
		if root != "" && !isDir(filepath.Join(root, "projects")) {
			root = ""
		}
	}
	if root != "" {
		if rel, ok := under(root, abs); ok {
			return rel
		}
	}
	for _, cwd := range cwds {
		if rel, ok := under(cwd, abs); ok {
			return rel
		}
	}
	return f.Path
}

// under returns p relative to dir, slash-separated, when p is inside dir.
func under(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Keys returns the key of each display path of this run: the Key of the
// file shown so, else (a store-wide finding on a folder or a backup) the
// path relative to the data root of an argument that holds it, else
// relative to the current folder, else the display path itself.
func (r *Result) Keys() func(display string) string {
	byPath := make(map[string]string, len(r.Files))
	for _, f := range r.Files {
		byPath[f.Path] = f.Key
	}
	cwds := workDirs()
	return func(display string) string {
		if k, ok := byPath[display]; ok {
			return k
		}
		abs, err := filepath.Abs(filepath.FromSlash(display))
		if err != nil {
			return display
		}
		for _, root := range r.Roots {
			if root.Dir != "" {
				if rel, ok := under(root.Dir, abs); ok {
					return rel
				}
			}
		}
		for _, cwd := range cwds {
			if rel, ok := under(cwd, abs); ok {
				return rel
			}
		}
		return display
	}
}
