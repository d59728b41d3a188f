#!/usr/bin/env bash
# Usage: bench/ab.sh [--rounds N] [--jobs N] STORE BIN...
#
# Runs each ccvet binary over STORE (a folder, as bench.sh passes it) in
# interleaved rounds and prints, per binary, the median and best wall time
# and the median CPU time (user+sys) in milliseconds: an A/B comparison of
# two builds on the same machine in the same minutes, which a loaded or
# slower machine does not skew as it skews tables taken on different days.
# The runs share one temporary HOME and CLAUDE_CONFIG_DIR and read no
# .ccvet.yaml (--no-config); a binary that fails (an exit status other
# than 0 or 1, which findings give) stops the comparison.
set -euo pipefail
rounds=5 jobs=2
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: bench/ab.sh [--rounds N] [--jobs N] STORE BIN..." >&2; exit 2; }
store=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home/.claude"
for ((r = 0; r < rounds; r++)); do
	for i in $(seq 1 $#); do
		bin=${!i}
		t0=$(date +%s%N)
		rc=0
		/usr/bin/time -f "%U %S" -o "$tmp/cpu" env HOME="$tmp/home" CLAUDE_CONFIG_DIR="$tmp/home/.claude" \
			"$bin" --no-config -j "$jobs" -q "$store" >/dev/null 2>"$tmp/err" || rc=$?
		if [ "$rc" -gt 1 ]; then
			echo "bench/ab.sh: $bin exited with status $rc:" >&2
			head -5 "$tmp/err" >&2
			exit 1
		fi
		t1=$(date +%s%N)
		read -r u s < <(tail -n 1 "$tmp/cpu")
		echo "$(((t1 - t0) / 1000000)) $(awk -v u="$u" -v s="$s" 'BEGIN{printf "%d", (u+s)*1000}')" >>"$tmp/runs.$i"
	done
done
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
for i in $(seq 1 $#); do
	bin=${!i}
	wall_med=$(cut -d' ' -f1 "$tmp/runs.$i" | median)
	wall_min=$(cut -d' ' -f1 "$tmp/runs.$i" | sort -n | head -1)
	cpu_med=$(cut -d' ' -f2 "$tmp/runs.$i" | median)
	printf '%-40s wall median %5d ms, best %5d ms; CPU median %5d ms\n' "$bin" "$wall_med" "$wall_min" "$cpu_med"
done
