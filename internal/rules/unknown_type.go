package rules

import (
	"strconv"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/schema"
)

// UnknownType reports an entry type, system subtype or content block type
// that ccvet's schemas do not know.
var UnknownType = register(&Rule{
	ID:       "unknown-type",
	Severity: finding.Warning,
	Enabled:  true,
	Strict:   true,
	Summary:  "an entry type, system subtype or content block type ccvet does not know",
	Why: "Claude Code's reader skips entry types it does not know, so a typo'd or foreign type is " +
		"silently lost; a new type from a newer version is something every transcript parser must learn.",
	Bad:  `{"parentUuid":null,"type":"usr",…}`,
	Good: `{"parentUuid":null,"type":"user",…}`,
	Fix:  "Correct the type, or update ccvet if a newer Claude Code wrote it.",
	Line: func(r *Rule, l *Line) {
		v := l.File.Env.Schema
		if !l.IsObject() || v == nil || !l.File.Kind.IsTranscript() || l.Type == "" {
			return
		}
		if !v.KnownEntryType(l.Type) {
			l.ReportPointer(r, "/type", false, "unknown entry type "+quote(l.Type))
			return
		}
		if l.Type == "system" {
			if st, ok := l.Root.Get("subtype").Str(); ok && !schema.KnownSystemSubtype(st) {
				l.ReportPointer(r, "/subtype", false, "unknown system subtype "+quote(st))
			}
		}
		for i, b := range l.Root.Get("message").Get("content").Items() {
			if t, ok := b.Get("type").Str(); ok && !schema.KnownBlockType(t) {
				l.ReportPointer(r, "/message/content/"+strconv.Itoa(i)+"/type", false,
					"unknown content block type "+quote(t))
			}
		}
	},
})
