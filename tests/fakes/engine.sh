#!/usr/bin/env bash
# A scripted fake engine for the match runner's tests. Speaks just enough UCI and UCCI to be started, then
# misbehaves on `go` as its first argument says:
#   crash    exits           hang     never answers      illegal  plays a0a9
#   slow     answers late    nomove   answers nobestmove
# or wraps a real engine ($2) and appends to each bestmove: wrap-draw (" draw"), wrap-resign (" resign").
mode="$1"
case "$mode" in
  wrap-draw) exec "$2" | sed -u -e 's/^\(bestmove .*\)$/\1 draw/' ;;
  wrap-resign) exec "$2" | sed -u -e 's/^\(bestmove .*\)$/\1 resign/' ;;
esac
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name fake-$mode"; echo "uciok" ;;
    ucci) echo "id name fake-$mode"; echo "ucciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) ;;
        illegal) echo "bestmove a0a9" ;;
        slow) sleep 2; echo "bestmove h2e2" ;;
        nomove) echo "nobestmove" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
