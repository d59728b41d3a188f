package rules

import "github.com/ccvet/ccvet/internal/finding"

// UnsafeBackupName reports a backupFileName that is not a plain file name.
var UnsafeBackupName = register(&Rule{
	ID:       "unsafe-backup-name",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a snapshot's backupFileName holds a path separator, \"..\", a NUL byte, or is absolute",
	Why: "Claude Code joins backupFileName to file-history/<sessionId>/ when it restores a checkpoint. " +
		"A name such as \"../../.ssh/id_rsa\" or \"/etc/passwd\" makes a rewind read a file outside that " +
		"folder and write its contents over the tracked file: a transcript from someone else (a shared or " +
		"downloaded store) can use it to plant or leak files. Claude Code itself only writes " +
		"<16 hex digits>@v<N>. ccvet never opens or stats such a name.",
	Bad:  `"trackedFileBackups":{"a.ts":{"backupFileName":"../../../.ssh/id_rsa","version":1,…}}`,
	Good: `"trackedFileBackups":{"a.ts":{"backupFileName":"3f9a0c1e2b4d5a6f@v1","version":1,…}}`,
	Fix: "Do not rewind with this transcript. Delete the snapshot line (the conversation survives) or " +
		"the whole session if you did not write it.",
	File: backupsCheck,
})
