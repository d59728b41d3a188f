package fix

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
)

// resumeView is the one place fix couples to the resume model: the leaf a
// resume of data starts from and the uuids of the conversation it rebuilds.
func resumeView(data []byte, lf *layout.File) (leaf string, reached map[string]bool) {
	var recs []*entry.Record
	var t jsontree.Tree
	line := 0
	for off := 0; off < len(data); {
		line++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		raw := data[off:end]
		if t.Parse(raw) == nil && t.Kind(jsontree.Root) == jsontree.Object {
			recs = append(recs, entry.Extract(jsontree.TreeVal(&t), line, int64(off)))
		}
		off = end + 1
	}
	g := chain.BuildSize(recs, int64(len(data)))
	li := -1
	if lf.Kind == layout.Subagent && lf.AgentID != "" {
		li = g.AgentLeaf(lf.AgentID)
	}
	if li < 0 {
		li = g.MainLeaf()
	}
	reached = map[string]bool{}
	if li < 0 {
		return "", reached
	}
	conv := g.Rebuild(li)
	for _, i := range conv.Order {
		reached[recs[i].UUID()] = true
	}
	return recs[li].UUID(), reached
}

// sameResume checks that a resume of the new bytes rebuilds the
// conversation a resume of the old bytes rebuilds, or a strict superset of
// it: it reaches every entry the old one reaches, and starts from the same
// leaf or from a later one whose conversation goes through the old leaf (a
// fix that makes the last line readable again, two entries fused there or
// a NUL run before one, gives back the turns the damage hid; a leaf on
// another branch is refused).
func sameResume(old, new []byte, lf *layout.File) error {
	l0, r0 := resumeView(old, lf)
	l1, r1 := resumeView(new, lf)
	if l0 != l1 && (l1 == "" || l0 != "" && !r1[l0]) {
		return fmt.Errorf("verification failed: a resume would start from %s instead of %s", orNone(l1), orNone(l0))
	}
	for _, u := range slices.Sorted(maps.Keys(r0)) { // the same message every run
		if !r1[u] {
			return fmt.Errorf("verification failed: a resume would no longer reach entry %s", u)
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no entry"
	}
	return s
}
