#!/usr/bin/env bash
# longlines.sh: peak RSS of ccvet over files that each hold one huge line, under -j 1 and -j N, and the finding for a line past the 512 MiB limit.
# Usage: bench/longlines.sh [--size 300M] [--files 4] [--jobs 4] [--over 560M|0] [--tmp DIR] [--bin CCVET]
set -euo pipefail

size=300M files=4 jobs=4 over=560M tmpbase=${TMPDIR:-/tmp} bin=""
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--files) files=$2; shift 2 ;;
	--jobs | -j) jobs=$2; shift 2 ;;
	--over) over=$2; shift 2 ;;
	--tmp) tmpbase=$2; shift 2 ;;
	--bin) bin=$(realpath "$2"); shift 2 ;; # a ccvet built elsewhere, e.g. from an older commit
	-h | --help) sed -n '2,3p' "$0"; exit 0 ;;
	*) echo "longlines.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -x /usr/bin/time ] || { echo "longlines.sh: GNU time (/usr/bin/time) is required" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "$tmpbase/ccvet-longlines-XXXXXX")
case "$tmp" in "$repo"/*) echo "longlines.sh: --tmp must be outside the checkout" >&2; exit 2 ;; esac
trap 'rm -rf "$tmp"' EXIT
if [ -n "$bin" ]; then
	cp "$bin" "$tmp/ccvet"
else
	(cd "$repo" && go build -o "$tmp/ccvet" ./cmd/ccvet)
fi
mkdir -p "$tmp/home" "$tmp/one/projects/-home-dev-src-app" "$tmp/over/projects/-home-dev-src-app"

bytes() { numfmt --from=iec "$1"; }
# line FILE N SIZE: one user entry of SIZE bytes (its content a run of letters), then a newline.
line() {
	local head='{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"'
	local tail
	tail=$(printf '"},"uuid":"00000000-0000-4000-8000-%012d","timestamp":"2026-01-01T00:00:00.000Z"}' "$2")
	{
		printf '%s' "$head"
		head -c $(($3 - ${#head} - ${#tail})) /dev/zero | tr '\0' x
		printf '%s\n' "$tail"
	} >"$1"
}
for ((i = 0; i < files; i++)); do
	line "$tmp/one/projects/-home-dev-src-app/0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e7$i.jsonl" $((i + 1)) "$(bytes "$size")"
done

# run LABEL JOBS DIR: ccvet's peak RSS and times, and its findings about line sizes.
run() {
	HOME=$tmp/home CLAUDE_CONFIG_DIR=$tmp/home /usr/bin/time -o "$tmp/time" -f '%e %U %S %M' \
		"$tmp/ccvet" --no-config --exit-zero -q -f json -j "$2" "$3/projects" >"$tmp/out.json"
	read -r wall user sys rss <"$tmp/time"
	awk -v l="$1" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" \
		'BEGIN { printf "  %-8s %7.2f s wall %6.2f s CPU %6d MB peak RSS\n", l, w, u + s, m / 1024 }'
}

echo "$files files of one $size line each ($tmp)"
run "-j 1" 1 "$tmp/one"
run "-j $jobs" "$jobs" "$tmp/one"
if [ "$over" != 0 ]; then
	line "$tmp/over/projects/-home-dev-src-app/0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e79.jsonl" 9 "$(bytes "$over")"
	echo "one $over line (past the 512 MiB limit)"
	run "-j $jobs" "$jobs" "$tmp/over"
	jq -r '.findings[] | select(.line == 1 and .rule == "oversized") | "  \(.rule): \(.message)"' "$tmp/out.json"
fi
