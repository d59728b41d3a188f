// Package workers runs independent pieces of work on a few goroutines.
package workers

import (
	"sync"
	"sync/atomic"
)

// Each calls fn(0) to fn(n-1), each once, on up to max(workers, 1)
// goroutines (the caller's among them), handing the indexes out in
// order, and returns when every call has.
func Each(n, workers int, fn func(i int)) {
	var next atomic.Int64
	run := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			fn(i)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, n) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
}
