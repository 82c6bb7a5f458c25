#!/usr/bin/env python3
"""Calibrates Chuhan's skill levels: plays the matches of docs/strength.md and fits one Elo scale to them
(plain Python, no packages).

Each match pairs two skill levels, or a level and the anchor, ElephantEye with its book off at a fixed time a
move. The levels are limited by nodes (src/strength.rs), so their matches give the same play on any machine and
under any load; only the anchor's matches need a quiet machine (run them with --only-anchor when nothing else
runs). The fit is the maximum-likelihood Elo of every engine from all the games at once (a logistic model, a
draw counting half; one pseudo-draw per match keeps a clean sweep finite), the anchor held at 2000; the errors
are 95 % intervals from the curvature of the likelihood.

    cargo build --release && cp target/release/chuhan /tmp/chuhan-cal
    python3 scripts/calibrate-strength.py --chuhan /tmp/chuhan-cal --eleeye /path/to/eleeye --out cal
    python3 scripts/calibrate-strength.py --fit-only --out cal      # the fit again from the saved results

Every match writes OUT/<a>-<b>.json (and .pgn); a match whose file holds its games is skipped and one stopped
part-way continues from its PGN file, so the same command resumes after an interruption. The last lines printed
are the rows of `CALIBRATION` in src/strength.rs and the table of docs/strength.md.
"""

import argparse
import json
import math
import os
import subprocess
import sys

ANCHOR, ANCHOR_ELO = "EE100", 2000.0

# (engine, engine, games): levels two apart (about 240 Elo, a score near 20 %) make a chain from 0 to 19, the
# odd levels up to 15 make a second chain, tied to the first by matches between neighbours (0-1, 5-6, 9-10,
# 13-14, 15-16), and the anchor meets the two levels nearest it. The
# cheap matches (few nodes a move) get the most games.
MATCHES = [
    ("L0", "L2", 200),
    ("L2", "L4", 200),
    ("L4", "L6", 200),
    ("L6", "L8", 200),
    ("L8", "L10", 200),
    ("L10", "L12", 200),
    ("L12", "L14", 160),
    ("L14", "L16", 120),
    ("L16", "L18", 100),
    ("L18", "L19", 100),
    ("L0", "L1", 200),
    ("L1", "L3", 200),
    ("L3", "L5", 200),
    ("L5", "L7", 200),
    ("L7", "L9", 200),
    ("L9", "L11", 200),
    ("L11", "L13", 160),
    ("L13", "L15", 100),
    ("L5", "L6", 200),
    ("L9", "L10", 200),
    ("L13", "L14", 100),
    ("L15", "L16", 100),
    ("EE100", "L14", 100),
    ("EE100", "L16", 100),
]


def engine_words(name, args):
    """The `--engine` words of a level (L<n>) or of ElephantEye at a time a move (EE<ms>)."""
    if name.startswith("L"):
        return [f"cmd={args.chuhan}", f"name={name}", f"option.SkillLevel={name[1:]}", "option.Hash=16"]
    if name.startswith("EE"):
        if not args.eleeye:
            raise SystemExit(f"{name} needs --eleeye PATH")
        return [f"cmd={args.eleeye}", f"name={name}", "proto=ucci", "option.usebook=false", f"movetime={name[2:]}"]
    raise SystemExit(f"unknown engine {name}")


def play(a, b, games, args, seed):
    path = os.path.join(args.out, f"{a}-{b}.json")
    if os.path.exists(path):
        with open(path) as f:
            if json.load(f).get("games", 0) >= games:
                return
    cmd = [args.chuhan, "match", "--engine", *engine_words(a, args), "--engine", *engine_words(b, args)]
    # The levels stop on nodes: this time a move only guards against a hang.
    cmd += ["--movetime", "3000", "--games", str(games), "--concurrency", str(args.concurrency)]
    # --resume: a match stopped part-way keeps the games its PGN file holds and plays only the rest.
    cmd += ["--seed", str(seed), "--json", path, "--pgn", os.path.join(args.out, f"{a}-{b}.pgn"), "--resume", "-q"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def results(out):
    """(a, b, games, points of a) for every finished match file."""
    rows = []
    for a, b, _ in MATCHES:
        path = os.path.join(out, f"{a}-{b}.json")
        if os.path.exists(path):
            with open(path) as f:
                j = json.load(f)
            if j["games"]:
                rows.append((a, b, j["games"], j["points"]))
    return rows


def solve(m, v):
    """m x = v by Gauss-Jordan elimination (m small and positive definite here)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(rows):
    """Maximum-likelihood Elo of every engine, the anchor fixed; returns {name: (elo, error95, games)}."""
    every = sorted({x for r in rows for x in r[:2]}, key=lambda s: (s[:1], int(s.lstrip("LE") or 0)))
    # Without the anchor's matches (yet), the lowest level is held at 0: a relative scale.
    anchor, anchor_elo = (ANCHOR, ANCHOR_ELO) if ANCHOR in every else (every[0], 0.0)
    names = [n for n in every if n != anchor]
    idx = {n: i for i, n in enumerate(names)}
    elo = {n: anchor_elo for n in names}
    elo[anchor] = anchor_elo
    k = math.log(10) / 400
    for _ in range(100):
        grad = [0.0] * len(names)
        hess = [[0.0] * len(names) for _ in names]
        for a, b, n, pts in rows:
            n, pts = n + 1, pts + 0.5  # one pseudo-draw
            e = 1 / (1 + math.exp(-k * (elo[a] - elo[b])))
            g, h = k * (pts - n * e), k * k * n * e * (1 - e)
            for x, sign in ((a, 1), (b, -1)):
                if x in idx:
                    grad[idx[x]] += sign * g
                    hess[idx[x]][idx[x]] += h
            if a in idx and b in idx:
                hess[idx[a]][idx[b]] -= h
                hess[idx[b]][idx[a]] -= h
        step = solve(hess, grad)
        for n_, i in idx.items():
            elo[n_] += step[i]
        if max(abs(s) for s in step) < 1e-6:
            break
    out = {anchor: (anchor_elo, 0.0, sum(r[2] for r in rows if anchor in r[:2]))}
    for n_, i in idx.items():
        unit = [1.0 if j == i else 0.0 for j in range(len(names))]
        var = solve(hess, unit)[i]
        out[n_] = (elo[n_], 1.96 * math.sqrt(var), sum(r[2] for r in rows if n_ in r[:2]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chuhan", default="target/release/chuhan")
    ap.add_argument("--eleeye", help="ElephantEye's binary (the anchor); built from github.com/xqbase/eleeye")
    ap.add_argument("--out", default="calibration")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--only-levels", action="store_true", help="play only the matches between levels")
    ap.add_argument("--only-anchor", action="store_true", help="play only the anchor's matches")
    ap.add_argument("--fit-only", action="store_true", help="play nothing: fit the saved results")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.fit_only:
        for seed, (a, b, games) in enumerate(MATCHES, start=1):
            anchor = ANCHOR in (a, b)
            if (args.only_levels and anchor) or (args.only_anchor and not anchor):
                continue
            play(a, b, games, args, seed)
    rows = results(args.out)
    if not rows:
        sys.exit("no results yet")
    for a, b, n, pts in rows:
        print(f"{a:>6} - {b:<6} {pts:5.1f} / {n:3d}  ({100 * pts / n:5.1f} %)")
    scale = fit(rows)
    print("\nengine    Elo    +/-  games")
    for name, (e, err, games) in sorted(scale.items(), key=lambda x: x[1][0]):
        print(f"{name:<7} {e:6.0f} {err:6.0f} {games:6d}")
    print("\n| level | Elo | ± 95 % | games |\n|---|---|---|---|")
    levels = {int(n[1:]): v for n, v in scale.items() if n.startswith("L")}
    for level in range(20):
        if level in levels:
            e, err, games = levels[level]
            print(f"| {level} | {e:.0f} | {err:.0f} | {games} |")
        elif any(x < level for x in levels) and any(x > level for x in levels):
            lo = max(x for x in levels if x < level)
            hi = min(x for x in levels if x > level)
            e = levels[lo][0] + (level - lo) / (hi - lo) * (levels[hi][0] - levels[lo][0])
            print(f"| {level} | {e:.0f} (between {lo} and {hi}) | — | — |")
        else:
            # Beyond the measured levels (the fit of a calibration still under way): nothing to read off.
            print(f"| {level} | not measured yet | — | — |")
    print("\n| match | score | games | Elo of the first |\n|---|---|---|---|")
    for a, b, n, pts in rows:
        p = min(max(pts / n, 1e-3), 1 - 1e-3)
        print(f"| {a} – {b} | {pts:g} – {n - pts:g} | {n} | {-400 * math.log10(1 / p - 1):+.0f} |")
    # UCI_Elo needs Elo rising with the level: where noise says otherwise, neighbours are pooled to their
    # games-weighted mean (isotonic regression) and the rows say so.
    points = sorted((int(n[1:]), e, err, g) for n, (e, err, g) in scale.items() if n.startswith("L"))
    blocks = []
    for lv, e, err, g in points:
        blocks.append([[lv], e, g])
        while len(blocks) > 1 and blocks[-2][1] >= blocks[-1][1]:
            b = blocks.pop()
            a = blocks[-1]
            a[1] = (a[1] * a[2] + b[1] * b[2]) / (a[2] + b[2])
            a[0] += b[0]
            a[2] += b[2]
    print("\n// src/strength.rs, CALIBRATION")
    info = {lv: (err, g) for lv, e, err, g in points}
    for levels, value, games in blocks:
        # A pooled block is one point at its mean level, with the largest error among its levels.
        level = sum(levels) / len(levels)
        err = max(info[lv][0] for lv in levels)
        note = f"  // levels {', '.join(map(str, levels))} pooled (isotonic)" if len(levels) > 1 else ""
        print(f"    Point {{ level: {level!r}, elo: {value:.0f}, error: {err:.0f}, games: {games} }},{note}")


if __name__ == "__main__":
    main()
