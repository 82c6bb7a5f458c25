#!/usr/bin/env bash
# Compares `chuhan bench`'s node count with the last `Bench: N` in the commit messages, so that a change that alters
# the search without saying so is caught (CI runs it; a commit that changes the search quotes the new figure).
# Usage: scripts/bench-check.sh [path/to/chuhan]   (default: target/release/chuhan, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/chuhan}"
[ -x "$bin" ] || cargo build --release --quiet
expected=$(git log --format=%B 2>/dev/null | grep -o 'Bench: [0-9]\+' | head -n 1 | awk '{print $2}' || true)
if [ -z "$expected" ]; then
    echo "bench-check: no 'Bench: N' in the commit log (a shallow clone?); nothing to compare"
    exit 0
fi
actual=$("$bin" bench 2>/dev/null | grep -o 'Bench: [0-9]\+' | awk '{print $2}')
if [ "$actual" != "$expected" ]; then
    echo "bench-check: chuhan bench gives $actual nodes, the last commit message that quotes one says $expected" >&2
    echo "bench-check: a change of the search must say its new signature in its commit message (Bench: $actual)" >&2
    exit 1
fi
echo "bench-check: Bench: $actual, as the commit log says"
