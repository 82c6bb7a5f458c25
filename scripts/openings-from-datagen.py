#!/usr/bin/env python3
"""A large set of balanced match openings, made by `chuhan datagen` (reproducible from the seed).

The built-in openings make about two hundred different games; a match at a fixed node count that plays more
games than that replays them (`chuhan match` warns), and its error bars are too narrow. This script has datagen
play short games (a built-in line, then random moves that lose no material, then a quick search that drops
unbalanced starts), keeps the first written position of each game whose score is within --max-score, and writes
them as FEN lines, sorted, each board once, for `chuhan match --openings FILE`.

    scripts/openings-from-datagen.py --chuhan target/release/chuhan --seed 4243 --games 6500 --out openings.fen

(2026-12-06, binary 5b2fc66: this command, the defaults, gives 1299 openings, sha256 771ddd3f5a3570bc…)
"""

import argparse
import os
import subprocess
import sys
import tempfile


def first_positions(lines, max_score):
    """The first position of each game (a game starts where the ply count falls) whose score is within reach."""
    out, prev = [], None
    for line in lines:
        fen, _result, score = (x.strip() for x in line.split("|"))
        fields = fen.split()
        ply = int(fields[5]) * 2 + (fields[1] == "b")
        if prev is None or ply <= prev:
            if abs(int(score)) <= max_score:
                out.append(fen)
        prev = ply
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chuhan", default="target/release/chuhan")
    ap.add_argument("--seed", type=int, default=4243)
    ap.add_argument("--games", type=int, default=6500)
    ap.add_argument("--nodes", type=int, default=300)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--balance", type=int, default=150, help="datagen's --balance for the first search")
    ap.add_argument("--max-score", type=int, default=120, help="largest |score| of a kept position")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "games.txt")
        # One thread: the games' lines are then never interleaved.
        cmd = [a.chuhan, "datagen", "--text", "--quiet", "--threads", "1", "--games", str(a.games),
               "--nodes", str(a.nodes), "--seed", str(a.seed), "--random-plies", str(a.random_plies),
               "--balance", str(a.balance), "--out", text]
        subprocess.run(cmd, check=True)
        with open(text) as f:
            fens = first_positions(f.read().splitlines(), a.max_score)
    boards, unique = set(), []
    for fen in sorted(fens):
        board = fen.split()[0]
        if board not in boards:
            boards.add(board)
            unique.append(fen)
    with open(a.out, "w") as f:
        f.write("\n".join(unique) + "\n")
    print(f"{len(unique)} openings written to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
