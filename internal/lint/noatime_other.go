//go:build !linux

package lint

const oNoatime = 0
