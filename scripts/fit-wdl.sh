#!/usr/bin/env bash
# Refits the win/draw/loss model of one evaluation (src/wdl.rs) when that evaluation changes: self-play games
# played with it, then `chuhan wdl` on them. Resumable (datagen resumes its file). Prints the model to paste
# into src/wdl.rs as HCE or NNUE.
#
#   scripts/fit-wdl.sh hce|nnue [games] [threads]      e.g. scripts/fit-wdl.sh nnue 8000 2
#
# CHUHAN (default target/release/chuhan) is the build whose evaluation is fitted; DATA (default data/) holds the
# games. 8000 games at 5000 nodes take about 3 hours on one thread here; the fits in src/wdl.rs used the
# networks' own training data instead (nnue/README.md), which is the same kind of games.
set -euo pipefail
eval_kind=${1:?give hce or nnue}
games=${2:-8000}
threads=${3:-2}
chuhan=${CHUHAN:-target/release/chuhan}
data=${DATA:-data}
mkdir -p "$data"
out="$data/wdl-$eval_kind-s31.xqg"
"$chuhan" datagen --games "$games" --nodes 5000 --threads "$threads" --seed 31 --eval "$eval_kind" --out "$out"
"$chuhan" wdl --data "$out" --threads "$threads"
