#!/usr/bin/env bash
# Builds two revisions of Chuhan side by side and runs an SPRT of NEW against BASE with `chuhan match`.
#
#   scripts/sprt.sh BASE NEW [extra chuhan match flags]
#   scripts/sprt.sh HEAD~1 HEAD
#   scripts/sprt.sh main my-branch --tc 20+0.2 --sprt "elo0=0 elo1=3"
#
# Defaults suit the 2-core development machine: two games at a time at 8+0.08, logistic-Elo SPRT [0, 5] with
# alpha = beta = 0.05, Chinese rules, the built-in opening suite, score adjudication. Later flags override
# earlier ones. Builds go to target/sprt/ (or $SPRT_DIR); the PGN and JSON land there too.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
base_rev=$1
new_rev=$2
shift 2

root=$(git rev-parse --show-toplevel)
work=${SPRT_DIR:-$root/target/sprt}
mkdir -p "$work"

build() {
  local rev=$1 sha dir
  sha=$(git -C "$root" rev-parse --short=10 "$rev")
  dir=$work/src-$sha
  if [ ! -x "$work/chuhan-$sha" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    git -C "$root" archive "$sha" | tar -x -C "$dir"
    # Archived files carry the commit's time; fresh times make cargo rebuild this revision's crate.
    find "$dir" -type f -exec touch {} +
    cargo build --release --quiet --manifest-path "$dir/Cargo.toml" --target-dir "$work/target" >&2
    cp "$work/target/release/chuhan" "$work/chuhan-$sha"
    rm -rf "$dir"
  fi
  echo "$sha"
}

base=$(build "$base_rev")
new=$(build "$new_rev")
echo "SPRT: new $new_rev ($new) against base $base_rev ($base)" >&2
for sha in "$base" "$new"; do
  echo "  $sha: $("$work/chuhan-$sha" bench 2>/dev/null | tail -n 1)" >&2
done

exec "$work/chuhan-$new" match \
  --engine "cmd=$work/chuhan-$new" "name=new-$new" \
  --engine "cmd=$work/chuhan-$base" "name=base-$base" \
  --each option.Hash=16 \
  --tc 8+0.08 --concurrency 2 --games 40000 \
  --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" \
  --resign "movecount=4 score=1200" --draw "movenumber=50 movecount=10 score=15" --maxmoves 300 \
  --pgn "$work/sprt-$base-$new.pgn" --json "$work/sprt-$base-$new.json" \
  "$@"
