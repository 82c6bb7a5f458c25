#!/usr/bin/env python3
"""Cross-checks the referee's repetition verdicts against Fairy-Stockfish (pyffish) on random chase cycles.

A developer tool, not a test dependency: `pip install pyffish`, build Chuhan (`cargo build --release`), then
    scripts/crosscheck_chases.py [positions] [seed]

It places a red king and rook (sometimes with an extra piece each) against a black king with a horse or a
cannon, plays random 4-ply cycles of reversible moves twice over (the start occurs a third time), and asks
both programs for the verdict: Chuhan with the Asian rules (`judge --rules asian`), Fairy-Stockfish with its
own (AXF-like) ones. Only cycles where the two rule sets agree by construction are compared: every move of
both sides is a check, idle, or a direct chase of an unprotected piece, as Chuhan labels them. Every
disagreement is printed with its FEN and moves; docs/rules.md explains the kinds that remain.
Fairy-Stockfish writes ranks 1-10; Chuhan (like UCCI and Pikafish) writes ranks 0-9.
"""
import json
import random
import re
import subprocess
import sys

import pyffish as sf

V = "xiangqi"


def ours(m):
    a, b, c, d = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return f"{a}{int(b) - 1}{c}{int(d) - 1}"


def reverse(m):
    a, b, c, d = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return f"{c}{d}{a}{b}"


def random_fen(rng):
    """A legal K+R(+x) vs K+N/C(+x) position with Red to move, or None."""
    board = {}
    red_king = (rng.choice([3, 4, 5]), rng.choice([0, 1, 2]))
    black_king = (rng.choice([3, 4, 5]), rng.choice([7, 8, 9]))
    board[red_king], board[black_king] = "K", "k"
    pieces = ["R", rng.choice(["n", "c"])]
    extra = rng.random()
    if extra < 0.3:
        pieces += ["A", "a"]
    elif extra < 0.5:
        pieces += ["P", "p"]
    for p in pieces:
        for _ in range(50):
            sq = (rng.randrange(9), rng.randrange(10))
            if sq in board:
                continue
            if p == "A" and sq not in [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]:
                continue
            if p == "a" and sq not in [(3, 9), (5, 9), (4, 8), (3, 7), (5, 7)]:
                continue
            if p == "P" and sq[1] < 5:
                continue
            if p == "p" and sq[1] > 4:
                continue
            board[sq] = p
            break
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if (f, r) in board:
                row += (str(empty) if empty else "") + board[(f, r)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    fen = "/".join(rows) + " w - - 0 1"
    return fen if sf.validate_fen(fen, V) == 1 and sf.legal_moves(V, fen, []) else None


def random_cycle(rng, fen):
    """Eight reversible moves that bring the start back twice, or None."""
    quiet = lambda moves: [m for m in sf.legal_moves(V, fen, moves) if not sf.is_capture(V, fen, moves, m)]
    red = quiet([])
    if not red:
        return None
    # Mostly rook moves onto the line of the black horse or cannon: chases are what this checks.
    target = next(((f, r) for r, row in enumerate(reversed(fen.split()[0].split("/")))
                   for f, p in enumerate(re.sub(r"\d", lambda d: "." * int(d.group()), row)) if p in "nc"), None)
    def on_line(m):
        f, r = ord(m[-3 if m[-2].isdigit() and m[-3].isalpha() else -2]) - 97, int(re.search(r"[a-i](\d+)$", m).group(1)) - 1
        return target is not None and (f == target[0] or r == target[1])
    lined = [m for m in red if on_line(m)]
    m1 = rng.choice(lined if lined and rng.random() < 0.8 else red)
    black = quiet([m1])
    if not black:
        return None
    b1 = rng.choice(black)
    cycle = [m1, b1, reverse(m1), reverse(b1)]
    line = []
    for m in cycle * 2:
        if m not in sf.legal_moves(V, fen, line):
            return None
        line.append(m)
    return line


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    compared = agreed = skipped = 0
    kinds = {}
    while compared < count:
        fen = random_fen(rng)
        line = fen and random_cycle(rng, fen)
        if not line:
            continue
        iccs = " ".join(ours(m) for m in line)
        out = subprocess.run(
            ["target/release/chuhan", "judge", "--fen", fen, "--moves", iccs, "--rules", "asian", "--json"],
            capture_output=True, text=True)
        if out.returncode != 0:
            continue
        j = json.loads(out.stdout)
        labels = j["labels"]
        direct = all(l["label"] in ("check", "idle") or (l["label"] == "chase" and "attacks the unprotected" in l["explanation"] and "check wins" not in l["explanation"]) for l in labels)
        if not direct or j["result"] == "ongoing":
            skipped += 1
            continue
        end, value = sf.is_optional_game_end(V, fen, line)
        theirs = "ongoing" if not end else "draw" if value == 0 else "black_wins" if value < 0 else "red_wins"
        compared += 1
        pattern = " ".join(l["label"] for l in labels)
        kinds[pattern] = kinds.get(pattern, 0) + 1
        if theirs == j["result"]:
            agreed += 1
        else:
            print(f"differ: {fen} | {iccs} | chuhan {j['result']} ({j['reason']}), fairy-stockfish {theirs}")
            for l in labels:
                print(f"    {l['move']} {l['label']}: {l['explanation']}")
    print(f"{compared} cycles compared, {agreed} agree, {compared - agreed} differ ({skipped} skipped: not direct chases or no verdict)")
    for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {n:5} {k}")


if __name__ == "__main__":
    main()
