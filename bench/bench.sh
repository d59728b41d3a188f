#!/usr/bin/env bash
# bench.sh: ccvet's full lint against jq and cat over the same synthetic store.
# Usage: bench/bench.sh [--size 1G] [--seed 1] [--cache DIR] [--jobs N]
set -euo pipefail

size=1G seed=1 jobs=0
cache=${XDG_CACHE_HOME:-$HOME/.cache}/ccvet-bench
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--jobs | -j) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,3p' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$cache"
store=$cache/store-$size-seed$seed
bin=$cache/ccvet

for tool in jq go; do
	command -v $tool >/dev/null || { echo "bench.sh: $tool is required" >&2; exit 2; }
done
if [ ! -x /usr/bin/time ] && command -v apt-get >/dev/null; then
	echo "installing GNU time (for peak RSS)…" >&2
	{ sudo -n apt-get install -y time || apt-get install -y time; } >/dev/null 2>&1 || true
fi

(cd "$repo" && go build -o "$bin" ./cmd/ccvet)

if [ ! -f "$store/.complete" ]; then
	echo "generating a $size store (seed $seed) in $store…" >&2
	rm -rf "$store"
	(cd "$repo" && go test ./internal/benchstore -run '^TestGenerateStore$' -count=1 -args -out "$store" -size "$size" -seed "$seed" >/dev/null)
	touch "$store/.complete"
fi

# The files every tool reads: what ccvet checks line by line (transcripts,
# subagents, history.jsonl). todos/ and file-history/ are left out for all.
list=$cache/files-$size-seed$seed
find "$store/projects" "$store/history.jsonl" -name '*.jsonl' -type f -print0 | sort -z >"$list"
nfiles=$(tr -cd '\0' <"$list" | wc -c)
bytes=$(xargs -0 cat <"$list" | wc -c)
mb=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')

now() { date +%s.%N; }
# run NAME CMD...: time CMD (reading the file list from stdin via xargs) and print a row.
rss=""
run() {
	local name=$1; shift
	sync
	xargs -0 cat <"$list" >/dev/null # warm the page cache alike for every tool
	local t0 t1
	t0=$(now)
	"$@"
	t1=$(now)
	awk -v n="$name" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" -v m="$bytes" -v r="$rss" \
		'BEGIN{printf "%-28s %8.2f s %9.1f MB/s %12s\n", n, s, m/1048576/s, r}'
	rss=""
}

ccvet_run() {
	# ccvet takes folders and files; xargs splits a long list over several
	# runs, so give it the store's folders (the same files: it checks the
	# transcripts and history.jsonl, plus the small todos/ documents).
	local tf
	tf=$(mktemp)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$tf" "$bin" --exit-zero -q -j "$jobs" "$store/projects" "$store/history.jsonl" >/dev/null
		rss="$(awk '{printf "%.0f MB RSS", $1/1024}' "$tf")"
	else
		"$bin" --exit-zero -q -j "$jobs" "$store/projects" "$store/history.jsonl" >/dev/null
		rss="(no /usr/bin/time)"
	fi
	rm -f "$tf"
}
jq_empty() { xargs -0 jq empty <"$list"; }
jq_c() { xargs -0 jq -c . <"$list" >/dev/null; }
cat_all() { xargs -0 cat <"$list" >/dev/null; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(go version | cut -d' ' -f3)"
echo "store:   $store ($nfiles files, $mb MB of JSON Lines)"
echo
printf '%-28s %10s %14s %12s\n' tool wall throughput peak
[ "$jobs" = 0 ] && jobs_label="-j $(nproc)" || jobs_label="-j $jobs"
run "ccvet (all rules, $jobs_label)" ccvet_run
jobs_save=$jobs
jobs=1
run "ccvet (all rules, -j 1)" ccvet_run
jobs=$jobs_save
run "jq empty" jq_empty
run "jq -c ." jq_c
run "cat" cat_all
