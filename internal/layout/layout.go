// Package layout finds the files under the paths given to ccvet and decides what each one is.
package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind says what a file is in Claude Code's data layout.
type Kind int

// File kinds.
const (
	Other      Kind = iota
	Transcript      // projects/<enc>/<sessionId>.jsonl, or a loose exported transcript
	Subagent        // agent-<id>.jsonl, flat or under <sessionId>/subagents/
	History         // history.jsonl
	Todos           // todos/<sessionId>-agent-<agentId>.json
	// Plain files that keep copies of session content (PlainCopies): never
	// checked as JSON, only read for what they hold (the secret rule).
	FileHistory // file-history/<sessionId>/<hash>@v<n>: a backup of a file a session edited
	ToolResult  // projects/<enc>/<sessionId>/tool-results/*: a large tool output kept aside
	PasteCache  // paste-cache/*: a large paste
)

func (k Kind) String() string {
	switch k {
	case Transcript:
		return "transcript"
	case Subagent:
		return "subagent"
	case History:
		return "history"
	case Todos:
		return "todos"
	case FileHistory:
		return "file-history backup"
	case ToolResult:
		return "tool result"
	case PasteCache:
		return "paste"
	}
	return "other"
}

// IsTranscript reports whether files of kind k hold conversation entries.
func (k Kind) IsTranscript() bool { return k == Transcript || k == Subagent }

// File is one file to check.
type File struct {
	OSPath  string // path to open
	Path    string // display path: slash-separated, relative to the argument that found it (Discover) or starting with it (DiscoverFromHere)
	Kind    Kind
	Size    int64
	Stdin   bool   // read from standard input
	Project string // OS path of the project folder the file belongs to (its directory for loose files)
	// InLayout is true when the file sits in a projects/<enc>/ folder of a data layout.
	InLayout bool
	// ProjectName is the encoded project folder name when InLayout.
	ProjectName string
	// SessionID is the session the file's name says it belongs to ("" if none).
	SessionID string
	// AgentID is the subagent id from an agent-<id>.jsonl name.
	AgentID string
	// Root is the data root (the folder holding projects/) when one is known.
	Root string
	// Base is the display path of the data root or argument, for store-wide findings.
	Arg string
	// Link is true for a file reached through a symbolic link (a file
	// argument that is one, or a link inside the walk to a file inside the
	// paths given): it is opened through the link. Any other file is opened
	// only if it is still not a link.
	Link bool
	// Context is true for a file read only so that the cross-file checks of
	// a file argument see the rest of its folder (see context.go): its
	// records feed the project checks, but nothing is reported on it.
	Context bool
	// Key names the file whatever the arguments were (key.go): its path
	// relative to the detected data root ("projects/<enc>/<sid>.jsonl",
	// "history.jsonl"), else relative to the current folder. Baselines and
	// configuration globs match it.
	Key string
}

// Problem is a path that could not be read or walked, or a link that was
// not followed.
type Problem struct {
	Path string // display path
	Err  error
}

// Result is what Discover found.
type Result struct {
	Files    []*File
	Skipped  int // files ccvet does not check (other files, backups, metadata, links not followed)
	Problems []Problem
	// Links are the symbolic links met inside the walk that were not
	// followed (to a folder, out of the paths given, dangling, a loop);
	// Err says why. Each is also counted in Skipped.
	Links []Problem
	// Roots are the data roots and projects folders among the arguments, for store-wide checks.
	Roots []Root
	// Foreign are the display paths of the files DropForeign skipped: JSON
	// Lines that are not Claude Code data (counted in Skipped too). A run
	// whose files were all foreign checked them and found them not ours.
	Foreign []string

	plain []PlainCopy // what a walk's parts found (walkDir moves it to its Root)
}

// Root is a scanned data root or projects folder.
type Root struct {
	Dir      string // OS path of the data root (the folder holding projects/), "" if only a projects folder was given
	Projects string // OS path of the projects folder
	Arg      string // the argument as given
	// Plain is PlainCopies(Dir), listed by the walk, when PlainListed:
	// the walk was of Dir itself and left out no folder but those it
	// could not read.
	Plain       []PlainCopy
	PlainListed bool
}

var (
	uuidRe  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	agentRe = regexp.MustCompile(`^agent-([A-Za-z0-9_-]+)\.jsonl$`)
	todosRe = regexp.MustCompile(`^(.+)-agent-(.+)\.json$`)
)

// IsUUID reports whether s looks like a UUID.
func IsUUID(s string) bool { return uuidRe.MatchString(s) }

// Discover walks the arguments. "-" stands for standard input and is named
// stdinName in reports. Missing arguments are returned as an error: the
// command cannot do what was asked.
func Discover(args []string, stdinName string) (*Result, error) {
	return discover(args, stdinName, len(args) > 1)
}

// DiscoverFromHere is Discover with display paths that always start with
// their argument, so that each one names its file from the current folder
// (for reports that a CI system maps onto the repository, like GitHub
// annotations).
func DiscoverFromHere(args []string, stdinName string) (*Result, error) {
	return discover(args, stdinName, true)
}

func discover(args []string, stdinName string, prefixArgs bool) (*Result, error) {
	res := &Result{}
	seen := map[string]bool{}
	// Every file belongs to the deepest argument that holds it: a path named
	// on the command line is checked as what it is, whatever else was named
	// and in what order (a folder walk leaves out the other arguments inside it).
	named := map[string]bool{}
	for _, arg := range args {
		if arg != "-" {
			if abs, err := filepath.Abs(arg); err == nil {
				named[abs] = true
				if real, err := filepath.EvalSymlinks(abs); err == nil {
					named[real] = true // walks see resolved paths
				}
			}
		}
	}
	var fileArgs []*File
	sc, err := newScope(args)
	if err != nil {
		return nil, err
	}
	for _, arg := range args {
		if arg == "-" {
			name := stdinName
			if name == "" {
				name = "<stdin>"
			}
			f := &File{OSPath: "-", Path: filepath.ToSlash(name), Stdin: true, Arg: name}
			classifyLoose(f, filepath.FromSlash(name))
			if f.Kind == Other {
				f.Kind = Transcript
			}
			res.Files = append(res.Files, f)
			continue
		}
		st, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, unwrapPathErr(err))
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: not a regular file or folder", arg)
			}
			if err := readable(arg); err != nil {
				return nil, fmt.Errorf("%s: %w", arg, unwrapPathErr(err))
			}
			abs, _ := filepath.Abs(arg)
			if seen[abs] {
				continue
			}
			seen[abs] = true
			// The display path is cleaned as a folder walk's are ("./s.jsonl" reads
			// "s.jsonl"), so that a file has one name in reports and fingerprints.
			f := &File{OSPath: arg, Path: path.Clean(filepath.ToSlash(arg)), Size: st.Size(), Arg: arg, Link: isLink(arg)}
			classify(f, abs, Root{})
			if f.Kind == Other && strings.HasSuffix(arg, ".jsonl") {
				f.Kind = Transcript
			}
			if f.Kind == Other {
				res.Skipped++
				continue
			}
			res.Files = append(res.Files, f)
			fileArgs = append(fileArgs, f)
			continue
		}
		if err := walkDir(res, arg, seen, named, prefixArgs, sc); err != nil {
			return nil, err
		}
	}
	addContext(res, fileArgs, seen)
	setKeys(res) // key.go
	sort.SliceStable(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	return res, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// walkDir walks one folder argument. Display paths are relative to it, or
// start with it when prefixArg is set. The argument itself may be a symbolic
// link (with or without a trailing slash): the folder it names is walked.
// Inside the walk, links to folders are never followed (so link loops cannot
// trap it), and links to regular files are followed only when their target
// lies inside the paths given (sc); every link not followed is listed in
// res.Links. A root that cannot be listed is an error. Paths in named (other
// arguments) are left to their own argument.
func walkDir(res *Result, arg string, seen, named map[string]bool, prefixArg bool, sc *scope) error {
	abs, err := filepath.Abs(arg)
	if err != nil {
		abs = arg
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if err := listable(abs); err != nil {
		return fmt.Errorf("%s: %w", arg, unwrapPathErr(err))
	}
	var root Root
	switch {
	case isDir(filepath.Join(abs, "projects")):
		root = Root{Dir: abs, Projects: filepath.Join(abs, "projects"), Arg: arg}
	case filepath.Base(abs) == "projects":
		root = Root{Projects: abs, Arg: arg}
		if isDir(filepath.Join(filepath.Dir(abs), "file-history")) || fileExists(filepath.Join(filepath.Dir(abs), "history.jsonl")) {
			root.Dir = filepath.Dir(abs)
		}
	}
	if root.Projects != "" {
		res.Roots = append(res.Roots, root)
	}
	// The file-history backups: never checked one by one (classify), only
	// counted as skipped, without working out their display path.
	backups := ""
	if root.Dir != "" {
		backups = filepath.Join(root.Dir, "file-history") + string(filepath.Separator)
	}
	var seenMu sync.Mutex // seen is shared by the goroutines of the walk
	// Walking the data root itself, the walk meets every plain copy
	// under it and lists them as PlainCopies would, unless it leaves a
	// folder out for another reason than not being able to read it.
	listPlain := root.Dir != "" && root.Dir == abs
	var leftOut atomic.Bool
	walkTree(res, abs, func(res *Result, p string, d fs.DirEntry, err error) error {
		display := func() string {
			rel, _ := filepath.Rel(abs, p)
			disp := filepath.ToSlash(rel)
			if rel == "." || prefixArg {
				// With several arguments, paths relative to each would be ambiguous.
				disp = path.Join(filepath.ToSlash(arg), disp)
			}
			return disp
		}
		if err != nil {
			res.Problems = append(res.Problems, Problem{Path: display(), Err: unwrapPathErr(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if listPlain && d.Type().IsRegular() {
			if rel, ok := relSlash(abs, p); ok {
				if kind, ok := plainKind(rel); ok {
					res.plain = append(res.plain, PlainCopy{OSPath: p, Rel: rel, Kind: kind})
				}
			}
		}
		if p != abs && named[p] {
			if d.IsDir() {
				leftOut.Store(true)
				return fs.SkipDir // another argument: walked on its own
			}
			return nil // a file argument
		}
		if d.IsDir() {
			if p != abs && (d.Name() == ".git" || d.Name() == "node_modules") {
				leftOut.Store(true)
				return fs.SkipDir
			}
			return nil
		}
		mode := d.Type()
		var size int64
		if mode&fs.ModeSymlink != 0 {
			st, why := followable(p, sc)
			if why != nil {
				res.Skipped++
				res.Links = append(res.Links, Problem{Path: display(), Err: why})
				return nil
			}
			size = st.Size()
		} else if !mode.IsRegular() {
			res.Skipped++ // FIFOs, sockets, devices: never opened
			return nil
		}
		seenMu.Lock()
		again := seen[p]
		seen[p] = true
		seenMu.Unlock()
		if again {
			return nil
		}
		if backups != "" && strings.HasPrefix(p, backups) {
			res.Skipped++ // what classify makes of it: Other
			return nil
		}
		f := &File{OSPath: p, Path: display(), Size: size, Arg: arg, Link: mode&fs.ModeSymlink != 0}
		classify(f, p, root)
		if f.Kind == Other {
			res.Skipped++
			return nil
		}
		if !f.Link {
			// Only a file to check is looked at (lstat): its name says
			// what it is, the others are skipped.
			if info, err := d.Info(); err == nil {
				f.Size = info.Size()
			}
		}
		res.Files = append(res.Files, f)
		return nil
	})
	if listPlain && !leftOut.Load() {
		r := &res.Roots[len(res.Roots)-1]
		r.Plain, r.PlainListed = res.plain, true
		sortPlain(r.Plain)
	}
	res.plain = nil
	return nil
}

// relSlash is p's slash-separated path from dir, when p lies below it.
func relSlash(dir, p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, dir)
	if !ok {
		return "", false
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		if rest, ok = strings.CutPrefix(rest, string(filepath.Separator)); !ok {
			return "", false
		}
	}
	return filepath.ToSlash(rest), rest != ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// classify decides a file's kind from its place in the layout, falling back
// to its name alone for files outside a layout.
func classify(f *File, p string, root Root) {
	slash := filepath.ToSlash(p)
	if root.Projects != "" {
		if rel, err := filepath.Rel(root.Projects, p); err == nil && !strings.HasPrefix(rel, "..") {
			f.Root = root.Dir
			parts := strings.Split(filepath.ToSlash(rel), "/")
			if len(parts) >= 2 {
				classifyInProject(f, parts, filepath.Join(root.Projects, parts[0]))
				return
			}
			return // a file directly in projects/: not ours
		}
		if root.Dir != "" {
			if rel, err := filepath.Rel(root.Dir, p); err == nil && !strings.HasPrefix(rel, "..") {
				f.Root = root.Dir
				parts := strings.Split(filepath.ToSlash(rel), "/")
				switch {
				case len(parts) == 1 && parts[0] == "history.jsonl":
					f.Kind = History
				case len(parts) == 2 && parts[0] == "todos" && strings.HasSuffix(parts[1], ".json"):
					f.Kind = Todos
					if m := todosRe.FindStringSubmatch(parts[1]); m != nil {
						f.SessionID, f.AgentID = m[1], m[2]
					}
				}
				return // file-history backups, settings, caches: not checked one by one
			}
		}
	}
	// No data root: look for a projects/<enc>/ folder in the path itself.
	if i := strings.LastIndex(slash, "/projects/"); i >= 0 {
		parts := strings.Split(slash[i+len("/projects/"):], "/")
		if len(parts) >= 2 {
			classifyInProject(f, parts, filepath.FromSlash(slash[:i+len("/projects/")]+parts[0]))
			if f.Kind != Other {
				if dataRoot := filepath.FromSlash(slash[:i]); isDir(filepath.Join(dataRoot, "file-history")) {
					f.Root = dataRoot
				}
				return
			}
		}
	}
	classifyLoose(f, p)
}

// classifyInProject handles parts = [<enc>, ...] below a projects folder.
func classifyInProject(f *File, parts []string, projectDir string) {
	name := parts[len(parts)-1]
	if !strings.HasSuffix(name, ".jsonl") {
		return // tool-results, meta.json sidecars, workflow files
	}
	f.InLayout = true
	f.ProjectName = parts[0]
	f.Project = projectDir
	if name == "journal.jsonl" {
		return // workflow journals have their own format
	}
	if m := agentRe.FindStringSubmatch(name); m != nil {
		f.Kind = Subagent
		f.AgentID = m[1]
		// <enc>/<sessionId>/subagents/[<group>/...]agent-<id>.jsonl
		if len(parts) >= 4 && parts[2] == "subagents" {
			f.SessionID = parts[1]
		}
		return
	}
	if len(parts) == 2 {
		f.Kind = Transcript
		f.SessionID = strings.TrimSuffix(name, ".jsonl")
		return
	}
	if len(parts) >= 4 && parts[2] == "subagents" {
		f.Kind = Subagent // a subagent file with an unexpected name
		f.SessionID = parts[1]
		return
	}
	f.Kind = Transcript
	f.SessionID = strings.TrimSuffix(name, ".jsonl")
}

// classifyLoose handles files outside a data layout by name.
func classifyLoose(f *File, p string) {
	name := filepath.Base(p)
	dir := filepath.Base(filepath.Dir(p))
	if f.Project == "" {
		f.Project = filepath.Dir(p)
	}
	switch {
	case name == "history.jsonl":
		f.Kind = History
	case dir == "todos" && strings.HasSuffix(name, ".json"):
		f.Kind = Todos
		if m := todosRe.FindStringSubmatch(name); m != nil {
			f.SessionID, f.AgentID = m[1], m[2]
		}
	case name == "journal.jsonl" && strings.Contains(filepath.ToSlash(p), "/workflows/"):
		// workflow run journals have a format of their own
	case strings.HasSuffix(name, ".jsonl"):
		if m := agentRe.FindStringSubmatch(name); m != nil {
			f.Kind = Subagent
			f.AgentID = m[1]
			// <dir>/<sessionId>/subagents/[...]/agent-<id>.jsonl belongs with <dir>/<sessionId>.jsonl.
			if i := strings.LastIndex(filepath.ToSlash(p), "/subagents/"); i >= 0 {
				sessDir := filepath.FromSlash(filepath.ToSlash(p)[:i])
				f.SessionID = filepath.Base(sessDir)
				f.Project = filepath.Dir(sessDir)
			}
			return
		}
		f.Kind = Transcript
		stem := strings.TrimSuffix(name, ".jsonl")
		if IsUUID(stem) {
			f.SessionID = stem
		}
	}
}
