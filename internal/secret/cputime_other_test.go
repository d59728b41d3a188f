//go:build !unix

package secret

import "time"

// cpuTime is not measured here: benchmarks report 0.
func cpuTime() time.Duration { return 0 }
