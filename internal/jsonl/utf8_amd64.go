package jsonl

import "golang.org/x/sys/cpu"

// wideUTF8 says validBlocks may be used (it needs AVX2); tests turn it
// off to check the portable path.
var wideUTF8 = cpu.X86.HasAVX2

// validBlocks reports whether b, whose length is a multiple of 32, holds
// no invalid UTF-8, leaving aside a sequence cut by its end. Implemented
// in assembly (utf8_amd64.s).
//
//go:noescape
func validBlocks(b []byte) bool
