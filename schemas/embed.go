// Package schemas holds the JSON Schemas (draft 2020-12) of the files Claude Code writes.
package schemas

import "embed"

// FS holds every schema: one file per entry type (user.json, system.json, ...),
// history.json, todos.json, and the shared definitions under defs/.
//
//go:embed *.json defs/*.json
var FS embed.FS
