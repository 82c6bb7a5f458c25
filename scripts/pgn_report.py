#!/usr/bin/env python3
"""Where a match is won and lost: a report on `chuhan match` PGN files, from one engine's side.

A developer tool (plain Python 3, no packages):
    scripts/pgn_report.py ENGINE FILE.pgn [FILE.pgn ...]
ENGINE is the name the match gave it (`--engine ... name=chuhan`). It reads the runner's move comments
`{+1.23/14 0.456s}` (score from the mover's side in pawns, depth, time) and prints
- the seconds each engine spent a move, by ten-move stretches (is the clock used alike?);
- how the games went once an engine's own score first reached +2, +3, +5, +8 (does a lead get converted, and
  does the engine's score mean what it says?);
- the games where both engines agreed for 20 plies that ENGINE was better (its score >= +3, the opponent's
  <= -1) and ENGINE still did not win, with the move where that began.
"""
import collections
import re
import sys

MOVE = re.compile(r"([A-I]\d-[A-I]\d)\s*(\{[^}]*\})?")
COMMENT = re.compile(r"([+-]?[\d.]+|[+-]?M\d*)/(\d+)\s+([\d.]+)s")
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def tag(game, name):
    m = re.search(r'\[%s "([^"]*)"\]' % name, game)
    return m.group(1) if m else ""


def games(paths):
    """Yields (red, black, result for Red, termination, [(ply, mover is red, score or None, seconds or None)])."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for g in text.split("[Event ")[1:]:
            result = RESULT.get(tag(g, "Result"))
            if result is None:
                continue
            body = g.split("\n\n", 1)[1] if "\n\n" in g else ""
            # A game set up with Black to move (FEN tag) starts with Black's move.
            black_first = tag(g, "FEN").split(" ")[1:2] == ["b"]
            moves = []
            for ply, (_, comment) in enumerate(MOVE.findall(body), start=int(black_first)):
                score = seconds = None
                m = COMMENT.search(comment or "")
                if m:
                    s = m.group(1)
                    score = (99.0 if not s.startswith("-") else -99.0) if "M" in s else float(s)
                    seconds = float(m.group(3))
                moves.append((ply, ply % 2 == 0, score, seconds))
            yield tag(g, "Red"), tag(g, "Black"), result, tag(g, "Termination"), moves


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    engine, paths = sys.argv[1], sys.argv[2:]
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    peaks = {side: collections.defaultdict(lambda: [0, 0, 0]) for side in ("us", "them")}
    kept = collections.Counter()
    lost_leads = []
    count = 0
    for gi, (red, black, result, term, moves) in enumerate(games(paths)):
        if engine not in (red, black):
            continue
        count += 1
        we_red = red == engine
        ours = result if we_red else 1.0 - result
        opponent = black if we_red else red
        # Scores from our side: (ply, ours?, score) for the moves that carry one.
        seen = []
        best = {"us": -999.0, "them": -999.0}
        for ply, red_moved, score, seconds in moves:
            mine = red_moved == we_red
            if seconds is not None:
                times[engine if mine else opponent][ply // 20].append(seconds)
            if score is None:
                continue
            seen.append((ply, mine, score if mine else -score))
            side = "us" if mine else "them"
            best[side] = max(best[side], score)
        for side, score in best.items():
            won = ours if side == "us" else 1.0 - ours
            for threshold in (2, 3, 5, 8):
                if score >= threshold:
                    peaks[side][threshold][{1.0: 0, 0.5: 1, 0.0: 2}[won]] += 1
        # A lead both engines saw: 20 consecutive plies with a score each, ours >= 3 and theirs (our side) >= 1.
        for start in range(len(seen) - 19):
            window = seen[start : start + 20]
            if window[-1][0] - window[0][0] != 19:
                continue
            if all(s >= 3 if mine else s >= 1 for _, mine, s in window):
                kept[ours] += 1
                if ours < 1:
                    lost_leads.append((gi + 1, term, ours, window[0][0] // 2 + 1))
                break
    print(f"{count} games of {engine}")
    print("\nseconds a move, by ten-move stretch (moves 1-10, 11-20, ...):")
    for name, by in sorted(times.items()):
        row = [f"{sum(v) / len(v):.3f}" for _, v in sorted(by.items())[:10]]
        print(f"  {name:<16} {' '.join(row)}")
    for side, label in (("us", engine), ("them", "the opponent")):
        print(f"\nonce {label}'s own score reached +N: its wins, draws, losses")
        for threshold, (w, d, l) in sorted(peaks[side].items()):
            print(f"  +{threshold}: {w} {d} {l}")
    total = sum(kept.values())
    print(f"\nleads both engines saw for 20 plies: {total}; won {kept[1.0]}, drawn {kept[0.5]}, lost {kept[0.0]}")
    for number, term, ours, move in lost_leads:
        print(f"  game {number}: {'drawn' if ours == 0.5 else 'lost'} ({term}), lead from move {move}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
