#!/usr/bin/env bash
# new-version.sh: when a Claude Code version ships, regenerate what ccvet knows of it: the writer scan (what it writes that ccvet does not know), schemas/versions.json, the reader table (docs/reader-behaviour.*), the scrubbed sessions in testdata/oracle/VERSION, and the goldens that name version ranges.
# Usage: scripts/new-version.sh [VERSION] [--out DIR] [--readers 2.1.110,2.1.330,VERSION]   (VERSION: default the newest on npm)
# Needs go, node and npm, python3; reaches only the npm registry. Writes only in this checkout and DIR
# (default /tmp/oracle-out, emptied first); Claude Code runs with a temporary HOME and CLAUDE_CONFIG_DIR,
# against the oracle's local stand-in for the Messages API. See docs/oracle.md.
set -uo pipefail

version="" out=/tmp/oracle-out readers=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--readers) readers=$2; shift 2 ;;
	-h | --help) sed -n '2,6p' "$0"; exit 0 ;;
	-*) echo "new-version.sh: unknown argument $1" >&2; exit 2 ;;
	*) version=$1; shift ;;
	esac
done
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
if [ -z "$version" ]; then
	version=$(npm view @anthropic-ai/claude-code version) || exit 1
fi
case $version in
*[!0-9.]* | "") echo "new-version.sh: not a version: $version" >&2; exit 2 ;;
esac
readers=${readers:-2.1.110,2.1.330,$version}
case "$out" in "$repo" | "$repo"/*) echo "new-version.sh: --out must be outside the checkout" >&2; exit 2 ;; esac
export CCVET_CLAUDE_CACHE="${CCVET_CLAUDE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ccvet/claude-code}"
export CCVET_ORACLE=1
logs=$out/logs
rm -rf "$out"
mkdir -p "$logs"
status=0
step() { printf '\n==> %s\n' "$*"; }
failed() { echo "    FAILED (log: $1)"; status=1; }

step "1/6 play every scenario with Claude Code $version (installs it if missing) into $out/$version"
CCVET_ORACLE_VERSIONS=$version CCVET_ORACLE_OUT=$out CCVET_ORACLE_SCRUB_OUT=$out/scrubbed \
	go test -count=1 -timeout 30m -run '^TestGenerate$' ./internal/oracle >"$logs/generate.log" 2>&1 ||
	{ failed "$logs/generate.log"; tail -20 "$logs/generate.log"; exit 1; }

step "2/6 writer scan: what $version writes that ccvet does not know (ccvet --strict on every scenario)"
if CCVET_ORACLE_VERSIONS=$version go test -count=1 -timeout 30m -run '^TestWriterTruth$' ./internal/oracle >"$logs/writer.log" 2>&1; then
	echo "    nothing new: default lint and --strict are clean on what $version writes"
else
	grep -E 'writer_test.go:|^\s+unknown-(field|type) ' "$logs/writer.log" | sed 's/^ */    /'
	failed "$logs/writer.log"
	echo "    Describe each new field or type in schemas/ (see ARCHITECTURE.md, \"A new entry type, or a new field\"), then run this again."
fi

step "3/6 schemas/versions.json widened to what $version wrote"
CCVET_ORACLE_OUT=$out go test -count=1 -run '^TestVersionsTable$' ./internal/schema -update-versions >"$logs/versions.log" 2>&1 ||
	failed "$logs/versions.log"

step "4/6 reader table on $readers (docs/reader-behaviour.json and .md)"
if CCVET_ORACLE_UPDATE=1 CCVET_ORACLE_READER_VERSIONS=$readers go test -count=1 -timeout 40m -run '^TestReaderBehaviour$' ./internal/oracle >"$logs/reader.log" 2>&1; then
	python3 - "$version" <<'PY'
import json, sys
new = sys.argv[1]
t = json.load(open("docs/reader-behaviour.json"))
cells = {}
for o in t["outcomes"]:
    cells.setdefault(o["corruption"], {})[o["version"]] = o["summary"]
prev = [v for v in t["versions"] if v != new]
base = prev[-1] if prev else None
diff = [(c, v.get(base), v.get(new)) for c, v in cells.items() if base and v.get(base) != v.get(new)]
print(f"    {len(cells)} damages; {new} differs from {base} on {len(diff)}")
for c, a, b in diff:
    print(f"    {c}:\n      {base}: {a}\n      {new}: {b}")
if diff:
    print("    Review the rules and the resume model (internal/resume/version.go) for these.")
PY
else
	failed "$logs/reader.log"
fi

step "5/6 scrubbed sessions into testdata/oracle/$version"
dst=testdata/oracle/$version
rm -rf "$dst"
for dir in "$out/scrubbed/$version"/*/; do
	sc=$(basename "$dir")
	case $sc in killed | large) continue ;; esac # damaged on purpose; 6 MB
	mkdir -p "$dst/$sc"
	for part in projects history.jsonl file-history; do
		[ -e "$dir/$part" ] && cp -R "$dir/$part" "$dst/$sc/"
	done
done
echo "    $(find "$dst" -type f | wc -l) files, $(du -sh "$dst" | cut -f1)"

step "6/6 goldens that name version ranges, and --strict on the new sessions"
go test -count=1 ./internal/cli -run 'TestRulesDoc|TestReadme|TestFindingsGolden|TestRuleFixtures' -update >"$logs/goldens.log" 2>&1 ||
	failed "$logs/goldens.log"
go test -count=1 ./internal/cli -run '^TestOracleTestdata$' >"$logs/testdata.log" 2>&1 || failed "$logs/testdata.log"

echo
git status --short -- schemas docs testdata internal/cli/testdata | sed 's/^/    /'
if [ $status -ne 0 ]; then
	echo "==> $version: not done yet (see FAILED above)"
else
	echo "==> $version: done; review git diff, then commit"
fi
exit $status
