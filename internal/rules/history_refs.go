package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// historyRecord gives the line's position in the form File.Column and
// File.ReportRecord take.
func historyRecord(h model.HistoryRef) *entry.Record {
	return entry.Ref(h.Line, h.Offset)
}

// collectHistoryRef records the session a history.jsonl line names.
func collectHistoryRef(l *model.Line) {
	if l.File.Kind != layout.History || !l.IsObject() {
		return
	}
	if sid := l.Root.Get("sessionId").String(); sid != "" {
		l.File.History = append(l.File.History, model.HistoryRef{Line: l.Num, Offset: l.Offset, SessionID: sid})
	}
}
