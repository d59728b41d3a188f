package rules

import "github.com/ccvet/ccvet/internal/finding"

// BackupNameMismatch reports a backup name that is not the one Claude Code
// derives from the file's path and version.
var BackupNameMismatch = register(&Rule{
	ID:       "backup-name-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a snapshot's backupFileName is not <first 16 hex of sha256(absolute path)>@v<version>",
	Why: "Claude Code names every backup after the file it saves: the first 16 hex digits of the " +
		"SHA-256 of the file's absolute path (the trackedFileBackups key, resolved against the launch " +
		"directory when relative), then @v and the snapshot's version. A name that does not fit was " +
		"edited by hand or by another tool, or was copied from another file's entry; rewinding would " +
		"then restore another file's contents, or another version's, over this file. A relative key is " +
		"tried against each session's launch directory first, then every other cwd of the transcript; " +
		"past a million paths hashed in one transcript (thousands of keys by thousands of directories) " +
		"the remaining keys are left unchecked, not reported.",
	Bad: `"trackedFileBackups":{"/home/me/app/a.ts":{"backupFileName":"0000000000000000@v1","version":1,…}}`,
	Good: `"trackedFileBackups":{"/home/me/app/a.ts":{"backupFileName":"<sha256("/home/me/app/a.ts")[:16]>@v1",` +
		`"version":1,…}}`,
	Fix: "Find the right backup in file-history/<sessionId>/ (sha256 of the absolute path) and correct " +
		"the name, or rewind the conversation only.",
	File: backupsCheck,
})
