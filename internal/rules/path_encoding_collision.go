package rules

import (
	"sort"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/pathenc"
)

// PathEncodingCollision reports a project folder holding sessions launched
// in different directories whose paths encode to the same folder name.
var PathEncodingCollision = register(&Rule{
	ID:       "path-encoding-collision",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "sessions from two different directories share one project folder because their paths encode to the same name",
	Why: "Claude Code names a project folder after its launch directory with every character that is not " +
		"[A-Za-z0-9] replaced by '-', so /a/b-c, /a/b/c, /a/b.c and /a/b_c all share projects/-a-b-c. " +
		"Their sessions are mixed: `claude --resume` and `--continue` in one directory list and pick up " +
		"the other's conversations, and project memory and cleanup treat them as one project " +
		"(anthropics/claude-code#7009, #69245, #70076; same-length non-ASCII names collide too, #40946, #70674).",
	Bad: "projects/-a-b-c/1111….jsonl launched with cwd \"/a/b-c\"\n" +
		"projects/-a-b-c/2222….jsonl launched with cwd \"/a/b/c\"",
	Good: "projects/-a-b-c/1111….jsonl and 2222….jsonl both launched with cwd \"/a/b-c\"",
	Fix: "Nothing in the data can be repaired safely. Rename one of the directories so that the names no " +
		"longer collide (Claude Code then starts a new project folder for it), or move that directory's " +
		"sessions into a folder of their own and resume them with `claude --resume <id>` from there.",
	// Nothing kept: it reads a file's first record with a cwd, a store record.
	Keeps: func(*Rule, *model.Project, *model.File) bool { return false },
	Project: func(r *Rule, p *model.Project) {
		if !p.InLayout || p.Name == "" {
			return
		}
		type launch struct {
			f   *model.File
			rec *entry.Record
		}
		groups := map[string][]launch{} // pathenc.Key(cwd) -> sessions
		for _, f := range p.Files {
			if f.Kind != layout.Transcript {
				continue
			}
			rec := launchRecord(f)
			if rec == nil || !pathenc.Encodes(rec.Cwd, p.Name) || !pathenc.WrittenBy(rec.Cwd, p.Name, rec.Version) {
				continue // another rule (project-dir-mismatch) looks at cwds that do not encode to the folder
			}
			k := pathenc.Key(rec.Cwd)
			groups[k] = append(groups[k], launch{f, rec})
		}
		if len(groups) < 2 {
			return
		}
		earlier := func(a, b launch) bool {
			if c := entry.CompareTimestamps(a.rec, b.rec); c != 0 && a.rec.HasTimestamp() && b.rec.HasTimestamp() {
				return c < 0
			}
			return a.f.Path < b.f.Path
		}
		firsts := make([]launch, 0, len(groups))
		counts := map[*model.File]int{}
		for _, g := range groups {
			sort.Slice(g, func(i, j int) bool { return earlier(g[i], g[j]) })
			firsts = append(firsts, g[0])
			counts[g[0].f] = len(g)
		}
		sort.Slice(firsts, func(i, j int) bool { return earlier(firsts[i], firsts[j]) })
		first := firsts[0]
		for _, l := range firsts[1:] {
			msg := func(n int) string {
				return "session launched in " + quote(l.rec.Cwd) + " shares project folder " + quote(p.Name) + " with " +
					plural(n, "session", "sessions") + " launched in " + quote(first.rec.Cwd) +
					": both paths encode to that name, so `claude --resume` in either directory mixes their sessions"
			}
			fd := recordFinding(l.f, l.rec, "/cwd", msg(counts[first.f]))
			// The count grows as sessions are launched there: a baseline
			// keeps matching (finding.WithoutNumbers).
			fd.Key = finding.WithoutNumbers(msg(0))
			fd.Related = []finding.Location{sessionRelated(first.f, first.rec, "/cwd",
				"first session launched in "+quote(first.rec.Cwd))}
			p.Emit(r, fd)
		}
	},
})
