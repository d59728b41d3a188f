#!/usr/bin/env bash
# gobench.sh: the Go benchmarks that guard the engine's hot paths, with allocations (-benchmem); --base REV runs them at REV too, interleaved, for a before/after.
# Usage: bench/gobench.sh [--count 3] [--benchtime 1s] [--bench REGEX] [--base REV]
set -euo pipefail

count=3 benchtime=1s base="" filter=.
while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift 2 ;;
	--benchtime) benchtime=$2; shift 2 ;;
	--bench) filter=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	-h | --help) sed -n '2,3p' "$0"; exit 0 ;;
	*) echo "gobench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
command -v go >/dev/null || { echo "gobench.sh: go is required" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# package and benchmarks: the fast schema check, its reference on failing lines and the schemas' startup; each stage alone over
# the same real transcripts (frame, parse, schema, reference, records, graph, resume) and the per-line engine whole; the graph
# record builder, the project rules over the records, the JSON parser, line framing.
suites=(
	"internal/schema ^(BenchmarkFastSchema|BenchmarkReference|BenchmarkStartup|BenchmarkStartupFirstLines)$"
	"internal/lint ^(BenchmarkStages|BenchmarkLines|BenchmarkExtract|BenchmarkGraphPass)$"
	"internal/jsontree ^BenchmarkParse$"
	"internal/jsonl ^BenchmarkReader$"
)

# build SRC TAG: compile each suite's test binary from the checkout SRC.
build() {
	local src=$1 tag=$2 s pkg
	for s in "${suites[@]}"; do
		pkg=${s%% *}
		(cd "$src" && go test -c -o "$tmp/$tag-${pkg//\//_}.test" "./$pkg")
	done
}

build "$repo" new
tags=(new)
if [ -n "$base" ]; then
	mkdir "$tmp/base"
	git -C "$repo" archive "$base" | tar -x -C "$tmp/base"
	build "$tmp/base" old
	tags=(old new)
fi

# Every binary runs in the package folder of this checkout, so old and new
# read the same inputs (testdata, the shared corpus when it is beside the
# checkout, else a generated store).
for ((r = 1; r <= count; r++)); do
	for s in "${suites[@]}"; do
		pkg=${s%% *} re=${s#* }
		grep -Eq -- "$filter" <<<"$re" || continue
		for tag in "${tags[@]}"; do
			bin=$tmp/$tag-${pkg//\//_}.test
			[ -x "$bin" ] || continue
			(cd "$repo/$pkg" && "$bin" -test.run '^$' -test.bench "$re" -test.benchmem \
				-test.benchtime "$benchtime" -test.count 1) |
				grep -E "^Benchmark" | grep -E -- "$filter" >>"$tmp/$tag.txt" || true
		done
	done
done

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -d "$repo/../shared/corpus/real" ]; then
	echo "inputs: the shared corpus (../shared/corpus/real) and testdata"
else
	echo "inputs: testdata and a generated store (no ../shared/corpus/real)"
fi
for tag in "${tags[@]}"; do
	echo
	case $tag in old) echo "== $base" ;; new) echo "== $(git -C "$repo" describe --always --dirty)" ;; esac
	cat "$tmp/$tag.txt"
done
if [ -n "$base" ]; then
	echo
	if command -v benchstat >/dev/null; then
		benchstat "$tmp/old.txt" "$tmp/new.txt"
	else
		echo "(benchstat compares them: go install golang.org/x/perf/cmd/benchstat@latest)"
	fi
fi
