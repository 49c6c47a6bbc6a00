"""The profiling study: every built-in agent (the reports' agents among them) over square
boards 8..128 at densities 0.1, 0.2 and 0.3, keep-going and classic rules, not told the
mine total: time per game with intervals, how it grows with the cells (exponents with
intervals), the work that explains it and where it goes (``fastsweep.profile``).

Also writes ``claims.csv``: the reports' stated complexities beside the measured
exponents (n = cells), and ``rele_time.csv``: the Rutgers report's runtime cells redone
(their baseline's seconds per game beside ``basic``'s, with intervals).
Re-running resumes; the committed results/profiling/ is made by scripts/reproduce.py.

Usage: python3 scripts/studies/profile_study.py [--quick] [--out DIR] [--seconds 1.5]
  --quick   seconds: basic and subset, sizes 8..32, one density
"""
import os

import pandas as pd

from fastsweep.studies.script_args import parse, parser, write_run

SIZES = [8, 16, 32, 64, 128]
DENSITIES = [0.1, 0.2, 0.3]
# the reports' claims, as they state them (n = cells, the board's dim squared)
CLAIMS = [
    ("subset", "O(n^3) (subset reduction of every clue pair; CS440 report)", 3.0),
    ("bruteforce", "O(n^2 2^n) worst case (full enumeration of the frontier; CS440 report)",
     float("inf")),
]


def claims_table(fits):
    rows = []
    for agent, claim, k in CLAIMS:
        t = fits[(fits.agent == agent) & (fits.quantity == "time")]
        for r in t.itertuples():
            rows.append(dict(agent=agent, claim=claim, claimed_exponent=k, rules=r.rules,
                             density=r.density, measured=r.exponent, lo=r.lo, hi=r.hi,
                             cells=f"{r.cells_lo}..{r.cells_hi}", holds=r.holds,
                             local=r.local))
    return pd.DataFrame(rows)


def rele_time(seed, seconds):
    """Their baseline's cells (30x30 / 0.2, 0.3; 50x50 / 0.5) with basic, told the total as
    they were, timed in repeats."""
    import fastsweep
    from fastsweep.studies.published import RELE_SECONDS

    rows = []
    for (side, d), theirs in sorted(RELE_SECONDS.items()):
        r = fastsweep.profile(["basic"], sizes=[side], densities=[d], mine_count=True,
                              repeats=5, seconds=seconds, seed=seed, quiet=True)
        s = r.summary.iloc[0]
        rows.append(dict(board=f"{side}x{side}", density=d, their_seconds=theirs,
                         basic_us=s.us_per_game, basic_us_lo=s.us_per_game_lo,
                         basic_us_hi=s.us_per_game_hi,
                         ratio=theirs / (s.us_per_game * 1e-6)))
    return pd.DataFrame(rows)


def main(argv=None):
    ap = parser("profile_study", __doc__, workers=False,
                quick="seconds: basic and subset, sizes 8..32, one density")
    ap.add_argument("--seconds", type=float, default=1.5,
                    help="about how long an agent's repeats at one board take")
    a = parse(ap, argv)
    import fastsweep
    from fastsweep.viz.profile_figures import plot_profile

    agents = ["basic", "subset"] if a.quick else list(fastsweep.AGENTS)
    sizes, dens = (SIZES[:3], DENSITIES[:1]) if a.quick else (SIZES, DENSITIES)
    secs = 0.05 if a.quick else a.seconds
    r = fastsweep.profile(agents, sizes=sizes, densities=dens,
                          rules=["keep-going", "classic"], repeats=5, seconds=secs,
                          max_game=2.0, out=a.out)
    files = plot_profile(a.out)
    c = claims_table(r.fits)
    c.to_csv(os.path.join(a.out, "claims.csv"), index=False, float_format="%.4g")
    files.append(os.path.join(a.out, "claims.csv"))
    if not a.quick:
        rt = rele_time(0, secs)
        rt.to_csv(os.path.join(a.out, "rele_time.csv"), index=False, float_format="%.4g")
        files.append(os.path.join(a.out, "rele_time.csv"))
    t = r.fits[r.fits.quantity == "time"]
    print(t[["agent", "rules", "density", "exponent", "lo", "hi", "cells_lo", "cells_hi",
             "holds"]].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    files.append(write_run(a, agents=agents, sizes=sizes, densities=dens))
    for f in files:
        print(f"wrote {f}")


if __name__ == "__main__":
    main()
