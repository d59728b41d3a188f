#!/usr/bin/env bash
# bench.sh: ccvet's full lint against jq and cat, on stores of many project folders and on one whose sessions all sit in one folder.
# Usage: bench/bench.sh [--corpus DIR] [--real-size 200M,1G] [--real-single-size 800M|0] [--chain-size 500M|0] [--short-chain-size 500M|0] [--progress-chain-size 500M|0] [--windows-size 200M|0] [--fresh-size 200M|0] [--windows-fresh-size 200M|0] [--size 200M,1G] [--single-size 800M|0] [--real DIR [--copies 9]] [--seed 1] [--runs 3] [--cache DIR] [--jobs N]
set -euo pipefail

sizes=200M,1G single=800M seed=1 jobs=0 runs=3 real="" copies=9
corpus="" rsizes=200M,1G rsingle=800M chain=500M shortchain=500M progchain=500M windows=200M fresh=200M winfresh=200M
cache=${XDG_CACHE_HOME:-$HOME/.cache}/ccvet-bench
while [ $# -gt 0 ]; do
	case $1 in
	--size) sizes=$2; shift 2 ;;
	--single-size) single=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--real) real=$2; shift 2 ;;
	--corpus) corpus=$2; shift 2 ;;
	--real-size) rsizes=$2; shift 2 ;;
	--real-single-size) rsingle=$2; shift 2 ;;
	--chain-size) chain=$2; shift 2 ;;
	--short-chain-size) shortchain=$2; shift 2 ;;
	--progress-chain-size) progchain=$2; shift 2 ;;
	--windows-size) windows=$2; shift 2 ;;
	--fresh-size) fresh=$2; shift 2 ;;
	--windows-fresh-size) winfresh=$2; shift 2 ;;
	--copies) copies=$2; shift 2 ;;
	--jobs | -j) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,3p' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
# The real-shaped stores are built from the shared corpus beside the checkout unless --corpus names another.
[ -z "$corpus" ] && [ -d "$repo/../shared/corpus/real" ] && corpus=$repo/../shared/corpus/real
[ -n "$corpus" ] && corpus=$(cd "$corpus" && pwd)
mkdir -p "$cache"
bin=$cache/ccvet
# ccvet runs with an empty home of its own: it reads only the stores named.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
run_ccvet="HOME='$home' CLAUDE_CONFIG_DIR='$home' '$bin' --no-config --exit-zero -q"
[ "$jobs" = 0 ] && jobs=$(nproc)

command -v go >/dev/null || { echo "bench.sh: go is required" >&2; exit 2; }
# apt_install PKG: install a Debian package when apt-get can (as root, or with sudo without a password).
apt_install() {
	command -v apt-get >/dev/null || return 0
	echo "installing $1 with apt-get…" >&2
	local sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo -n"
	{ $sudo apt-get install -y "$1" || { $sudo apt-get update && $sudo apt-get install -y "$1"; }; } >/dev/null 2>&1 || true
}
command -v jq >/dev/null || apt_install jq
command -v jq >/dev/null || { echo "bench.sh: jq is required" >&2; exit 2; }
[ -x /usr/bin/time ] || apt_install time # GNU time, for CPU time and peak RSS
[ -x /usr/bin/time ] || { echo "bench.sh: GNU time (/usr/bin/time) is required" >&2; exit 2; }

(cd "$repo" && go build -o "$bin" ./cmd/ccvet)

# store NAME SIZE PROJECTS: generate a store once (deterministic for a seed).
store() {
	local dir=$cache/store-$1
	if [ ! -f "$dir/.complete" ]; then
		echo "generating $dir ($2, seed $seed)…" >&2
		rm -rf "$dir"
		(cd "$repo" && go test ./internal/benchstore -run '^TestGenerateStore$' -count=1 \
			-args -out "$dir" -size "$2" -seed "$seed" -projects "$3" >/dev/null)
		touch "$dir/.complete"
	fi
	echo "$dir"
}

# realshaped NAME SIZE MODE: a store built once from copies of the corpus's
# healthy real transcripts, laid out as Claude Code lays them out (MODE many:
# a project folder per copy; one: one folder; chain: one transcript;
# chain-short: one transcript of the sources whose lines average under
# 2,000 bytes; chain-progress: one transcript of the sources whose lines
# are at least half progress entries (hooks and tools that report often);
# windows: as many, with Windows paths; fresh: as many, each
# copy's long strings rewritten so that no copy repeats another's text;
# windows-fresh: both).
realshaped() {
	local dir=$cache/store-realshaped-$1
	if [ ! -f "$dir/.complete" ]; then
		echo "building $dir ($2 of real transcripts, $3, seed $seed)…" >&2
		rm -rf "$dir"
		(cd "$repo" && go test ./internal/benchstore -run '^TestGenerateRealStore$' -count=1 -timeout 30m \
			-args -real "$corpus" -out "$dir" -size "$2" -seed "$seed" -mode "$3" >/dev/null)
		touch "$dir/.complete"
	fi
	echo "$dir"
}

# realstore DIR N: a store of N copies of the .jsonl files under DIR (real
# transcripts, e.g. ../shared/corpus/real), each copy in its own folder so
# that no two copies share a project.
realstore() {
	local src=$1 n=$2 dir=$cache/store-real-$(basename "$1")-${2}x
	if [ ! -f "$dir/.complete" ]; then
		echo "copying $src $n times into $dir…" >&2
		rm -rf "$dir"
		for ((k = 1; k <= n; k++)); do
			mkdir -p "$dir/c$k"
			(cd "$src" && find . -name '*.jsonl' -type f -exec cp --parents -t "$dir/c$k" {} +)
		done
		touch "$dir/.complete"
	fi
	echo "$dir"
}

# One row per tool: the best wall time of $runs interleaved rounds, the
# user+sys CPU seconds of that run, throughput, speed relative to jq empty,
# and the largest peak RSS of all runs.
bench_store() {
	local label=$1 dir=$2
	local list=$cache/files-$(basename "$dir")
	# A generated data root is checked as users do (projects/ and
	# history.jsonl); a store of real copies as one folder.
	local targets="'$dir'" largest=""
	if [ -d "$dir/projects" ]; then
		targets="'$dir/projects'"
		[ -f "$dir/history.jsonl" ] && targets="$targets '$dir/history.jsonl'"
		largest=", largest project folder $(du -sm "$dir"/projects/* | sort -n | tail -1 | cut -f1) MB"
	fi
	eval "find $targets -name '*.jsonl' -type f -print0" | sort -z >"$list"
	local nfiles bytes
	nfiles=$(tr -cd '\0' <"$list" | wc -c)
	bytes=$(xargs -0 cat <"$list" | wc -c)
	echo
	echo "$label: $dir"
	echo "  $nfiles files, $(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}') MB of JSON Lines$largest"
	local names=("cat" "jq empty" "jq empty, 2 processes" "ccvet -j 1" "ccvet -j $jobs" "ccvet -j $jobs, no secret")
	local cmds=(
		"xargs -0 cat <'$list' >/dev/null"
		"xargs -0 jq empty <'$list'"
		"xargs -0 -P 2 -n 16 jq empty <'$list'"
		"$run_ccvet -j 1 $targets >/dev/null"
		"$run_ccvet -j $jobs $targets >/dev/null"
		"$run_ccvet -j $jobs --disable secret $targets >/dev/null"
	)
	local out=$cache/times.$$
	: >"$out"
	for ((r = 1; r <= runs; r++)); do
		for i in "${!cmds[@]}"; do
			xargs -0 cat <"$list" >/dev/null # the page cache warm alike for every tool
			/usr/bin/time -f "$i %e %U %S %M" -a -o "$out" bash -c "${cmds[$i]}"
		done
	done
	printf '  %-24s %8s %9s %10s %8s %10s\n' tool wall "CPU (u+s)" MB/s "x jq" "peak RSS"
	awk -v b="$bytes" -v names="$(printf '%s\n' "${names[@]}")" '
		BEGIN { n = split(names, nm, "\n") }
		{ i = $1; if ($2 < 0.005) $2 = 0.005; if (!(i in w) || $2 < w[i]) { w[i] = $2; c[i] = $3 + $4 } if ($5 > m[i]) m[i] = $5 }
		END {
			jq = w[1]
			for (i = 0; i < n - 0; i++) if (i in w) {
				rss = (nm[i+1] ~ /^ccvet/) ? sprintf("%.0f MB", m[i] / 1024) : ""
				printf "  %-24s %6.2f s %7.2f s %10.1f %7.1fx %10s\n", nm[i+1], w[i], c[i], b / 1048576 / w[i], jq / w[i], rss
			}
			if ((3 in w) && (4 in w) && nm[5] != nm[4])
				printf "  %s vs -j 1: speedup %.2fx (wall time ratio), CPU seconds %.2fx\n", nm[5], w[3] / w[4], c[4] / (c[3] > 0 ? c[3] : 0.01)
			if ((4 in w) && (5 in w))
				printf "  the secret rule: ccvet -j %s takes %.2fx the wall time and %.2fx the CPU seconds of the lint without it\n", "'"$jobs"'", w[4] / w[5], c[4] / (c[5] > 0 ? c[5] : 0.01)
		}' "$out"
	rm -f "$out"
}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "best wall time of $runs interleaved runs; CPU is that run's user+sys; peak RSS the largest of all runs"
if [ -n "$corpus" ]; then # real-shaped stores first: what users have
	for size in ${rsizes//,/ }; do
		[ "$size" = 0 ] && continue
		bench_store "real-shaped, many project folders ($size)" "$(realshaped "$size-seed$seed" "$size" many)"
	done
	if [ "$rsingle" != 0 ]; then
		bench_store "real-shaped, one project folder ($rsingle)" "$(realshaped "$rsingle-one-seed$seed" "$rsingle" one)"
	fi
	if [ "$chain" != 0 ]; then
		bench_store "real-shaped, one transcript ($chain)" "$(realshaped "$chain-chain-seed$seed" "$chain" chain)"
	fi
	if [ "$shortchain" != 0 ]; then
		bench_store "real-shaped, one transcript of short entries ($shortchain)" "$(realshaped "$shortchain-chain-short-seed$seed" "$shortchain" chain-short)"
	fi
	if [ "$progchain" != 0 ]; then
		bench_store "real-shaped, one transcript mostly of progress entries ($progchain)" "$(realshaped "$progchain-chain-progress-seed$seed" "$progchain" chain-progress)"
	fi
	if [ "$windows" != 0 ]; then
		bench_store "real-shaped, Windows paths, many project folders ($windows)" "$(realshaped "$windows-windows-seed$seed" "$windows" windows)"
	fi
	if [ "$fresh" != 0 ]; then
		bench_store "real-shaped, no long text repeated across files, many project folders ($fresh)" "$(realshaped "$fresh-fresh-seed$seed" "$fresh" fresh)"
	fi
	if [ "$winfresh" != 0 ]; then # the shape of a real Windows store whose sessions share little text
		bench_store "real-shaped, Windows paths, no long text repeated, many project folders ($winfresh)" "$(realshaped "$winfresh-windows-fresh-seed$seed" "$winfresh" windows-fresh)"
	fi
else
	echo "(no corpus: --corpus DIR, or ../shared/corpus/real beside the checkout, adds the real-shaped stores)"
fi
for size in ${sizes//,/ }; do
	[ "$size" = 0 ] && continue
	bench_store "many project folders ($size)" "$(store "$size-seed$seed" "$size" 0)"
done
if [ "$single" != 0 ]; then # --single-size 0: no single-folder store
	bench_store "one project folder ($single)" "$(store "$single-one-seed$seed" "$single" 1)"
fi
if [ -n "$real" ]; then # --real DIR: copies of real transcripts
	bench_store "$copies copies of $real" "$(realstore "$(cd "$real" && pwd)" "$copies")"
fi
