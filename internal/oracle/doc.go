// Package oracle runs the real Claude Code offline against a stand-in Messages API, for tests only (see README.md here).
package oracle
