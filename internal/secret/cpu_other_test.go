//go:build !unix

package secret_test

// cpuTime is unknown here.
func cpuTime() int64 { return -1 }
