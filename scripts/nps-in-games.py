#!/usr/bin/env python3
"""Nodes a second in the positions of real games, as a time control sees them.

`chuhan bench` searches a few fixed positions to a fixed depth from an empty hash table. A match is different:
every move is a short search from a position of a game, with the hash table and the network's caches carried
over from the move before. This script replays the games of a PGN file (ICCS moves, as `chuhan match` writes
them), sends every k-th position to each engine with `position startpos moves ...` and a `go` command, and
reports the nodes and the nodes a second of the last `info` line of each search. The engines take turns, round
after round, so that a noisy, shared host slows them alike; the ratios to the first engine are the figures to
quote.

    scripts/nps-in-games.py games.pgn --every 10 --go "go movetime 100" --rounds 2 \\
        --engine target/release/chuhan \\
        --engine target/release/chuhan EvalFile=data/kb.nnue

An engine is a command followed by UCI options as NAME=VALUE. UCI engines only (Chuhan, Pikafish).
"""
import argparse
import re
import statistics
import subprocess
import sys


def games_of(path):
    """The games of a PGN file as lists of UCI moves ("h2e2")."""
    games, moves = [], []
    for line in open(path, encoding="utf-8"):
        if line.startswith("["):
            if moves:
                games.append(moves)
                moves = []
            continue
        line = re.sub(r"\{[^}]*\}", "", line)
        moves += [(a + b).lower() for a, b in re.findall(r"\b([A-I]\d)-([A-I]\d)\b", line)]
    if moves:
        games.append(moves)
    return games


class Engine:
    def __init__(self, cmd, options):
        self.name = " ".join([cmd] + options)
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for opt in options:
            name, _, value = opt.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        """Reads up to a line starting with `prefix`; returns the last `info` line with nodes before it."""
        last = None
        for line in self.p.stdout:
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith(prefix):
                return last
        sys.exit(f"{self.name}: the engine stopped")

    def search(self, moves, go):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        info = self.wait("bestmove")
        if info is None:
            return None
        nodes = int(re.search(r" nodes (\d+)", info).group(1))
        ms = int(re.search(r" time (\d+)", info).group(1))
        return nodes, ms

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--every", type=int, default=10, help="search every k-th position of each game (10)")
    ap.add_argument("--go", default="go movetime 100", help='the search command ("go movetime 100")')
    ap.add_argument("--rounds", type=int, default=2, help="passes over the positions, engines in turn (2)")
    ap.add_argument("--engine", nargs="+", action="append", required=True, metavar="CMD [NAME=VALUE ...]")
    args = ap.parse_args()
    games = games_of(args.pgn)
    if not games:
        sys.exit(f"{args.pgn}: no games with ICCS moves")
    totals = [[0, 0, []] for _ in args.engine]  # nodes, ms, per-search nodes/s
    for _ in range(args.rounds):
        for i, spec in enumerate(args.engine):
            engine = Engine(spec[0], spec[1:])
            for game in games:
                engine.send("ucinewgame")
                for ply in range(0, len(game), args.every):
                    result = engine.search(game[:ply], args.go)
                    if result:
                        totals[i][0] += result[0]
                        totals[i][1] += result[1]
                        totals[i][2].append(result[0] * 1000 / max(result[1], 1))
            engine.close()
    speeds = [nodes * 1000 / max(ms, 1) for nodes, ms, _ in totals]
    for spec, nps, (_, _, rates) in zip(args.engine, speeds, totals):
        if not rates:
            print(f"no search reported its nodes: {' '.join(spec)}")
            continue
        ratio = f"{nps / speeds[0]:.3f}x" if speeds[0] else "-"
        print(f"{nps:10.0f} nodes/s ({ratio}), median search {statistics.median(rates):.0f}, "
              f"{len(rates)} searches: {' '.join(spec)}")


if __name__ == "__main__":
    main()
