package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/layout"
)

// HistoryRef is one history.jsonl line that names a session: what the
// store-wide history checks need once the line itself is gone.
type HistoryRef struct {
	Line      int
	Offset    int64
	SessionID string
}

// record gives the line's position in the form File.Column and
// File.ReportRecord take.
func (h HistoryRef) record() *entry.Record {
	return &entry.Record{Line: h.Line, Offset: h.Offset}
}

// collectHistoryRef records the session a history.jsonl line names.
func collectHistoryRef(l *Line) {
	if l.File.Kind != layout.History || !l.IsObject() {
		return
	}
	if sid := l.Root.Get("sessionId").String(); sid != "" {
		l.File.History = append(l.File.History, HistoryRef{Line: l.Num, Offset: l.Offset, SessionID: sid})
	}
}
