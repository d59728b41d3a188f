package lint

import (
	"sync"

	"github.com/ccvet/ccvet/internal/model"
)

// progress returns what the engine calls after reading each file: it adds
// the file to the run's totals and passes them to Options.Progress, one
// call at a time, whatever the number of workers.
func (e *Engine) progress() func(f *model.File) {
	hook := e.opts.Progress
	if hook == nil {
		return func(*model.File) {}
	}
	var mu sync.Mutex
	files, bytes := 0, int64(0)
	return func(f *model.File) {
		mu.Lock()
		defer mu.Unlock()
		files++
		bytes += f.Bytes
		hook(files, bytes)
	}
}
