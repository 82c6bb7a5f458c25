#!/usr/bin/env python3
"""SPSA tuning of the search parameters with `chuhan match` (plain Python, no packages).

Each iteration perturbs every tuned parameter by +-c_k (a random sign each), plays a small match of the
"plus" engine against the "minus" engine, and moves the parameters along the signs by r_k * c_k * (W - L).
The schedule is OpenBench's: c_k = c / (k+1)^0.101 and r_k = a / (A+k+1)^0.602, fitted so that the last
iteration uses each parameter's `c_end` and `r_end` from `chuhan params --spsa`.

Needs a binary built with the `spsa` feature (parameters as options):
    cargo build --release --features spsa && cp target/release/chuhan /tmp/chuhan-spsa
    python3 scripts/spsa.py --engine /tmp/chuhan-spsa --params nmp_base,rfp_margin,futility_base \
        --iterations 500 --pairs 4 --tc 4+0.04 --concurrency 2 --state spsa-state.json
The state file is rewritten after every iteration; run the same command again to resume. The last line of
each iteration is the current values, ready for `option.NAME=V` in a `chuhan match` SPRT against the defaults.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ALPHA, GAMMA = 0.602, 0.101


def read_params(engine):
    out = subprocess.run([engine, "params", "--spsa"], check=True, capture_output=True, text=True).stdout
    params = {}
    for line in out.splitlines():
        name, _, value, lo, hi, c_end, r_end = [w.strip() for w in line.split(",")]
        params[name] = dict(value=float(value), min=int(lo), max=int(hi), c_end=float(c_end), r_end=float(r_end))
    return params


def play(args, plus, minus, seed):
    """W - L of `plus` against `minus` over args.pairs game pairs."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = os.path.join(tmp, "summary.json")
        spec = lambda name, values: ["--engine", f"cmd={args.engine}", f"name={name}"] + [
            f"option.{k}={v}" for k, v in values.items()
        ]
        cmd = [args.engine, "match", *spec("plus", plus), *spec("minus", minus), "--games", str(2 * args.pairs),
               "--concurrency", str(args.concurrency), "--json", summary, "--seed", str(seed), "--quiet"]
        cmd += ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]
        if args.openings:
            cmd += ["--openings", args.openings]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(summary) as f:
            s = json.load(f)
    return s["wins"] - s["losses"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a chuhan binary built with --features spsa")
    ap.add_argument("--params", help="comma-separated names (default: all)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    ap.add_argument("--tc", default="4+0.04")
    ap.add_argument("--nodes", type=int, help="a node limit per move instead of --tc")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", default="spsa-state.json")
    ap.add_argument("--rate", type=float, default=1.0,
                    help="scale every r_end (a short run on few cores moves too little with OpenBench's 0.002)")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        print(f"resuming at iteration {state['iteration']} from {args.state}", file=sys.stderr)
    else:
        params = read_params(args.engine)
        names = args.params.split(",") if args.params else list(params)
        unknown = [n for n in names if n not in params]
        if unknown:
            sys.exit(f"spsa: unknown parameters {unknown}; see `{args.engine} params`")
        state = dict(iteration=0, rate=args.rate, params={n: params[n] for n in names})
    # The schedule is fixed by the first run: a resumed run keeps its rate.
    rate = state.get("rate", 1.0)

    n = args.iterations
    big_a = 0.1 * n
    while state["iteration"] < n:
        k = state["iteration"]
        # Signs drawn per iteration from the seed: a resumed run perturbs as an unbroken one would have.
        rng = random.Random(args.seed * 1_000_003 + k)
        plus, minus, signs = {}, {}, {}
        for name, p in state["params"].items():
            c = p["c_end"] * n**GAMMA
            a = p["r_end"] * rate * p["c_end"] ** 2 * (big_a + n) ** ALPHA
            c_k = c / (k + 1) ** GAMMA
            r_k = a / (big_a + k + 1) ** ALPHA / c_k**2
            signs[name] = (1 if rng.random() < 0.5 else -1, c_k, r_k)
            clamp = lambda v: max(p["min"], min(p["max"], round(v)))
            plus[name] = clamp(p["value"] + c_k * signs[name][0])
            minus[name] = clamp(p["value"] - c_k * signs[name][0])
        result = play(args, plus, minus, args.seed + k)
        for name, (sign, c_k, r_k) in signs.items():
            p = state["params"][name]
            p["value"] = max(p["min"], min(p["max"], p["value"] + r_k * c_k * result * sign))
        state["iteration"] = k + 1
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + ".tmp", args.state)
        values = " ".join(f"{name}={p['value']:.2f}" for name, p in state["params"].items())
        print(f"iteration {k + 1}/{n}: W-L {result:+d}; {values}", flush=True)


if __name__ == "__main__":
    main()
