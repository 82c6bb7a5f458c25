#!/usr/bin/env bash
# Plays short games in a real XBoard (4.9, under Xvfb) between Chuhan and Chuhan, or Chuhan and another CECP
# engine, and checks that each ended with a result, with no illegal move and no protocol error in XBoard's
# debug log. Takes a screenshot of the board during the first game.
#
# Needs (Debian): xboard (its binary is in /usr/games), xvfb, and for the screenshot x11-apps (xwd) and
# imagemagick (convert). It installs nothing itself.
#
#   scripts/xboard-check.sh [--games N] [--tc MIN:SEC] [--inc SEC] [--second CMD] [--out DIR] [--screenshot PNG]
#                           [--fixture FILE]
#
# --fixture writes what XBoard sent to the first engine, and the first engine's moves, from the debug log in
# the format of tests/fixtures/xboard-4.9.1-game.txt (the CECP replay test reads it).
#
# Defaults: 1 game at 0:20 + 0.1 s, Chuhan (target/release/chuhan, built if missing) against itself, output in
# /tmp/xboard-check. Exit status 0 when every game is clean.
set -euo pipefail

games=1 tc=0:20 inc=0.1 out=/tmp/xboard-check shot="" second="" fixture=""
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --inc) inc=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --screenshot) shot=$2; shift 2 ;;
        --second) second=$2; shift 2 ;;
        --fixture) fixture=$2; shift 2 ;;
        *) echo "xboard-check: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

xboard=$(command -v xboard || echo /usr/games/xboard)
for tool in "$xboard" Xvfb; do
    command -v "$tool" >/dev/null || { echo "xboard-check: '$tool' not found (apt-get install xboard xvfb)" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/target/release/chuhan"
[ -x "$bin" ] || (cd "$root" && cargo build --release --quiet)
second=${second:-$bin}

mkdir -p "$out"
rm -f "$out"/debug.log "$out"/games.pgn
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1

# The traditional board and pieces, from the xboard package's xiangqi theme, when it is there.
theme=()
themes=/usr/share/games/xboard/themes
if [ -f "$themes/textures/xqboard-9x10.png" ]; then
    theme=(-pid "$themes/xiangqi" -trueColors true -useBoardTexture true
        -liteBackTextureFile "$themes/textures/xqboard-9x10.png" -darkBackTextureFile "$themes/textures/xqboard-9x10.png"
        -overrideLineGap 0 -highlightMoveWithArrow true)
fi

# Match mode: XBoard starts both engines (CECP), plays the games and exits.
DISPLAY=$display "$xboard" -variant xiangqi -size medium "${theme[@]}" -settingsFile /dev/null \
    -fcp "$bin" -fd "$out" -scp "$second" -sd "$out" \
    -tc "$tc" -inc "$inc" -mg "$games" -ruleMoves 0 -popupExitMessage false -popupMoveErrors false \
    -debug -nameOfDebugFile "$out/debug.log" -saveGameFile "$out/games.pgn" >"$out/xboard.out" 2>&1 &
gui=$!

if [ -n "$shot" ]; then
    # A screenshot some moves into the first game.
    sleep 15
    if command -v xwd >/dev/null && command -v convert >/dev/null; then
        xwd -root -silent -display "$display" | convert xwd:- -trim +repage -colors 64 "$shot" && echo "xboard-check: screenshot $shot"
    else
        echo "xboard-check: no screenshot (needs xwd from x11-apps and convert from imagemagick)" >&2
    fi
fi
wait $gui || true

status=0
results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$out/games.pgn" 2>/dev/null || true)
echo "xboard-check: $results of $games games ended with a result ($out/games.pgn)"
[ "${results:-0}" -eq "$games" ] || status=1
grep -h '^\[Result\|^{' "$out/games.pgn" 2>/dev/null | head -20 || true
# What XBoard says when an engine sends a move or command it cannot use.
if grep -n -i 'illegal move\|Error (\|bad FEN\|unknown command\|tellusererror' "$out/debug.log"; then
    echo "xboard-check: problems in $out/debug.log (above)" >&2
    status=1
fi
moves=$(grep -c '^[0-9]* >[^ ]* usermove\|>.*: usermove' "$out/debug.log" || true)
echo "xboard-check: $moves usermove commands sent to the engines; debug log $out/debug.log"
if [ -n "$fixture" ]; then
    # The log writes a command's continuation lines unprefixed, and `usermove` apart from its move.
    {
        echo "# XBoard $("$xboard" --version 2>&1 | head -1 | awk '{print $3}') talking to the first engine, from its debug log (scripts/xboard-check.sh)."
        echo "# \">\" lines are what XBoard sent; \"<\" lines the engine's moves as it sent them."
        awk '
            /^[0-9]+ >first : / { sub(/^[0-9]+ >first : /, ""); print "> " $0; cont = 1; next }
            cont && /^[a-z][a-z0-9 .:\/-]*$/ { print "> " $0; next }
            { cont = 0 }
            /^[0-9]+ <first : move / { sub(/^[0-9]+ <first : /, ""); print "< " $0 }
        ' "$out/debug.log" | sed -E 's/^> usermove [0-9]+ >first : /> usermove /'
    } >"$fixture"
    echo "xboard-check: fixture $fixture"
fi
exit $status
