package rules

import "github.com/ccvet/ccvet/internal/finding"

// UnfollowedLink names a symbolic link met inside the walk that ccvet did
// not follow. The engine reports it from what discovery found; the rule
// lives here for its documentation and id.
var UnfollowedLink = register(&Rule{
	ID:       "unfollowed-link",
	Severity: finding.Note,
	Enabled:  true,
	Summary:  "a symbolic link inside the checked folders was not followed (out of the paths given, to a folder, dangling, a loop)",
	Why: "ccvet follows a link met inside the folders it walks only to a regular file that also lies inside the " +
		"paths given, so that a link in a checked tree cannot make it read, and print, a file from elsewhere " +
		"(a committed x.jsonl -> /proc/self/environ would print a CI runner's secrets). Links to folders are " +
		"never followed, so loops cannot trap the walk. What the link points to was not checked.",
	Bad:  "projects/-home-me-app/s.jsonl -> /srv/exports/s.jsonl",
	Good: "projects/-home-me-app/s.jsonl (a regular file), or a link to another file inside the paths given",
	Fix:  "Check the target by naming it on the command line, or replace the link with the file it points to.",
})
