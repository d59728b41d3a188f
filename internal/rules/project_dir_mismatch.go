package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/pathenc"
	"github.com/ccvet/ccvet/internal/secret"
)

// ProjectDirMismatch reports a session stored in a project folder that is
// not named after the directory it was launched in.
var ProjectDirMismatch = register(&Rule{
	ID:       "project-dir-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a session's launch directory does not encode to the name of the project folder it is stored in",
	Why: "Claude Code looks for a directory's sessions only in projects/<encoded launch directory>/. A " +
		"session stored under another name (moved or copied by hand, a folder renamed, a store merged from " +
		"another machine) does not show in `claude --resume` or `--continue` when run from its directory, and " +
		"resuming it by id from elsewhere mixes it into the wrong project " +
		"(compare anthropics/claude-code#7009, #69245 and #70076 for how names are derived). " +
		"Accepted spellings: the current encoding, the uncapped one before 2.1.47, any hash after the first " +
		"200 characters (for a session started by 2.1.101 or later, the 32-bit hash those versions write; " +
		"before 2.1.47 only the uncapped name), either case of a Windows drive letter, NFC and NFD spellings (2.1.39 changed the " +
		"normalization), a cwd with a trailing separator encoded with or without it, and a folder named " +
		"after a later cwd of the session (`/cd`, 2.1.169+). Folder names that can only come from " +
		"CLAUDE_CODE_PROJECT_DIR_NAME (no leading '-' or drive, or an underscore) are not checked. A launch directory that is a symbolic link may also " +
		"differ from the folder name (from 2.0.28 the real path is encoded).",
	Bad:  "projects/-home-me-app/1111….jsonl whose first entry has \"cwd\":\"/home/me/other\"",
	Good: "projects/-home-me-app/1111….jsonl whose first entry has \"cwd\":\"/home/me/app\"",
	Fix: "Move the session file (with its <sessionId>/ folder of subagents and tool results) into " +
		"projects/<encoded launch directory>/, or resume it with `claude --resume <id>` from the directory " +
		"it belongs to.",
	File: func(r *Rule, f *model.File) {
		if !f.InLayout || f.Kind != layout.Transcript || f.ProjectName == "" {
			return
		}
		rec := launchRecord(f)
		if rec == nil || pathenc.MaybeOverride(f.ProjectName) ||
			pathenc.Matches(rec.Cwd, f.ProjectName) && pathenc.WrittenBy(rec.Cwd, f.ProjectName, rec.Version) {
			return
		}
		// From 2.1.169 `/cd` moves a session's working directory: a later
		// cwd of the file may be the one its folder is named after.
		for _, o := range f.Records {
			if o.Cwd != "" && o.Cwd != rec.Cwd && pathenc.Matches(o.Cwd, f.ProjectName) && pathenc.WrittenBy(o.Cwd, f.ProjectName, o.Version) {
				return
			}
		}
		want := pathenc.EncodeFor(rec.Cwd, rec.Version)
		if want == f.ProjectName {
			return // never claim the folder should be named what it is named
		}
		// The folder name shown is that of the cwd with its secrets
		// masked: the encoding of a key (its '_' and '/' turned to '-')
		// is no key the message's mask would find.
		have, should := quoteApart(f.ProjectName, pathenc.EncodeFor(secret.Default().Mask(rec.Cwd), rec.Version))
		msg := "session launched in " + quote(rec.Cwd) + " is stored in project folder " + have +
			", but that directory's folder is " + should + ": `claude --resume` run there will not list it"
		if len(f.ProjectName) <= 64 {
			msg += " (unless CLAUDE_CODE_PROJECT_DIR_NAME named the folder)"
		}
		f.ReportRecord(r, rec, "/cwd", finding.Finding{Message: msg})
	},
})

// quoteApart quotes two names so that the quotes differ where the names
// do: a long name shortened by quote is shown from a little before the
// first difference instead ("…ccc-zzzzzz" against "…ccc-q5y4ul").
func quoteApart(a, b string) (string, string) {
	qa, qb := quote(a), quote(b)
	if qa != qb || a == b {
		return qa, qb
	}
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	from := max(i-10, 0)
	return quote("…" + string(ra[from:])), quote("…" + string(rb[from:]))
}
