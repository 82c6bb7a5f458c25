#!/usr/bin/env python3
"""Cross-checks Chuhan's legal move generation against Fairy-Stockfish (pyffish) on random games.

A developer tool, not a test dependency: `pip install pyffish`, build Chuhan (`cargo build --release`), then
    scripts/crosscheck_pyffish.py [games] [seed]
Fairy-Stockfish writes ranks 1-10; Chuhan (like UCCI and Pikafish) writes ranks 0-9.
"""
import random
import re
import subprocess
import sys

import pyffish as sf

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def to_ours(m):
    a, b, c, d = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return f"{a}{int(b) - 1}{c}{int(d) - 1}"


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    eng = subprocess.Popen(["target/release/chuhan"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    eng.stdin.write("uci\n")
    checked = 0
    for g in range(games):
        moves = []
        for _ in range(rng.randrange(20, 200)):
            theirs = sorted(to_ours(m) for m in sf.legal_moves("xiangqi", START, moves))
            eng.stdin.write(f"position startpos moves {' '.join(to_ours(m) for m in moves)}\ngo perft 1\n")
            eng.stdin.flush()
            ours = []
            while True:
                line = eng.stdout.readline().strip()
                if line.startswith("Nodes searched"):
                    break
                if ":" in line:
                    ours.append(line.split(":")[0])
            ours.sort()
            checked += 1
            if ours != theirs:
                print("MISMATCH after", moves, "\n ours only:", set(ours) - set(theirs),
                      "\n theirs only:", set(theirs) - set(ours))
                sys.exit(1)
            if not theirs:
                break
            moves.append(rng.choice(sf.legal_moves("xiangqi", START, moves)))
    eng.stdin.write("quit\n")
    print(f"{checked} positions in {games} random games: identical legal moves")


if __name__ == "__main__":
    main()
