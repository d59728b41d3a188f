package layout

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// visitFunc is called for each path a walk meets, as by filepath.WalkDir,
// with the part of the result the path's subtree goes to. It returns nil,
// or fs.SkipDir for a folder (the folder's entries are then not walked).
type visitFunc func(part *Result, p string, d fs.DirEntry, err error) error

// splitDepth is the depth below the walk's root at which folders are walked
// on their own goroutines: projects/<folder> and file-history/<session> of
// a data root, the session folders of a projects folder.
const splitDepth = 2

// walkJobs is how many goroutines list folders beside the one walking
// (a fixed number: a store of 40,000 sessions is 40,000 such folders):
// listing is system calls (open, getdents64, lstat), which cost
// microseconds each on a virtual machine, for hundreds of folders in a
// store.
const walkJobs = 2

// walkTree walks the tree at root as filepath.WalkDir does and calls visit
// in the same order for each subtree, but has walkJobs more goroutines
// list the folders at splitDepth (and what lies below them). Each such
// folder's visits go to a part of their own, put back into res in the
// order a walk on one goroutine would have met them (so res's lists are
// the same, whatever finished first). visit must not touch res itself,
// nor anything shared without a lock.
func walkTree(res *Result, root string, visit visitFunc) {
	w := &treeWalk{visit: visit, tasks: make(chan listTask, walkQueue)}
	for range walkJobs {
		w.wg.Go(func() {
			for t := range w.tasks {
				w.list(t.seg, t.path, t.d, splitDepth)
			}
		})
	}
	top := &segment{}
	info, err := os.Lstat(root)
	if err != nil {
		_ = visit(top.part(), root, nil, err)
	} else {
		w.dir(top, root, fs.FileInfoToDirEntry(info), 0)
	}
	close(w.tasks)
	w.wg.Wait()
	top.mergeInto(res)
}

// walkQueue is how many folders may wait for a listing goroutine; past it
// the walking goroutine lists the next one itself.
const walkQueue = 256

type treeWalk struct {
	visit visitFunc
	tasks chan listTask
	wg    sync.WaitGroup
}

// listTask is a folder at splitDepth to list into seg.
type listTask struct {
	seg  *segment
	path string
	d    fs.DirEntry
}

// segment is one stretch of a walk's visits: a part, then the subtrees
// handed out from it (each a segment of its own), the part holding what was
// visited after them following in the next segment.
type segment struct {
	res  Result
	sub  *segment // a subtree walked apart, or nil
	next *segment // what the walk visited after sub
}

func (s *segment) part() *Result { return &s.res }

// mergeInto appends the segments' results to res in order.
func (s *segment) mergeInto(res *Result) {
	for ; s != nil; s = s.next {
		res.Files = append(res.Files, s.res.Files...)
		res.Skipped += s.res.Skipped
		res.Problems = append(res.Problems, s.res.Problems...)
		res.Links = append(res.Links, s.res.Links...)
		res.plain = append(res.plain, s.res.plain...)
		if s.sub != nil {
			s.sub.mergeInto(res)
		}
	}
}

// dir visits p (and, for a folder, what lies in it) into the segment cur,
// and returns the segment the walk goes on in.
func (w *treeWalk) dir(cur *segment, p string, d fs.DirEntry, depth int) *segment {
	if err := w.visit(cur.part(), p, d, nil); err != nil || !d.IsDir() {
		return cur // SkipDir (a folder), or not a folder
	}
	if depth == splitDepth {
		sub := &segment{}
		cur.sub = sub
		cur.next = &segment{}
		select {
		case w.tasks <- listTask{sub, p, d}:
		default:
			w.list(sub, p, d, depth) // the queue is full
		}
		return cur.next
	}
	return w.list(cur, p, d, depth)
}

// list visits the entries of folder p, in name order, into cur.
func (w *treeWalk) list(cur *segment, p string, d fs.DirEntry, depth int) *segment {
	entries, err := os.ReadDir(p)
	if err != nil {
		if w.visit(cur.part(), p, d, err) != nil {
			return cur // SkipDir: what was read is not walked
		}
	}
	for _, e := range entries {
		cur = w.dir(cur, filepath.Join(p, e.Name()), e, depth+1)
	}
	return cur
}
