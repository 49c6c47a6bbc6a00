"""The published reports' studies, redone with their own agents beside fastsweep's.

One CSV per report under ``--out`` (default out/reports/; the committed results/reports/
is made by scripts/reproduce.py), one row per (agent, board, density, rules, mine total)
cell with 95% CIs, written as each cell finishes (a rerun skips the cells already there:
an interrupted run loses nothing; ``fastsweep.studies.cells``), one figure per report
(``fig_<report>.png/.pdf``, drawn by ``reports_figures.py``) and run.json:

* ``rele2019``: Rele, Raman, Eng, Patel (Rutgers 2019): flag rate of basic (their
  baseline), linalg, bruteforce and linalg-bruteforce at densities 0.1-0.5 on 10..40
  boards, with and without the total; plus seconds per game beside theirs;
* ``cs440``: the CS440 report (20x20): basic vs linalg-plus across densities, with and
  without the total; its follow-up's cost (share of mines detonated) and risk (share of
  moves that are guesses) for linalg-plus, probability and risk at densities 0.2-0.8;
* ``patel2020``: Patel, Prabhala, Shah, Goradia (2020): score against density for basic,
  subset, probability and threshold on 10..50 boards;
* ``dhurandhar``: classic rules, first cell (0,0), no total: win rates on 9x9/10,
  16x16/40 and 30x30/185 for every agent, over the first 50 games (their sample) and over
  all ``--games``.

Keep-going rules unless stated; random opening cell; game i of a board is the same for
every agent (paired). Cells run on ``--workers`` processes (seconds per game are then
measured with the other worker busy).

Usage: python3 scripts/studies/reports.py [--only rele2019,cs440,patel2020,dhurandhar]
                                          [--games 2000] [--workers 2] [--out DIR] [--quick]
  --quick   seconds: each agent's cell on the smallest board at the fewest mines, 10 games
"""
from __future__ import annotations

from fastsweep.studies.cells import study_main

SEED = 2019
D = [0.1, 0.2, 0.3, 0.5]
STUDIES = {
    # name: list of (agent, size, density or mines, rules, mine_count, extra options)
    "rele2019": [(a, d, dens, "keep-going", mc, {})
                 for a in ("basic", "linalg", "bruteforce", "linalg-bruteforce")
                 for d in (10, 20, 30, 40) for dens in D for mc in (True, False)]
                # their timing board (50x50 at 0.5), fewer games: see GAMES
                + [("basic", 50, 0.5, "keep-going", mc, {}) for mc in (True, False)]
                + [("linalg", 50, 0.5, "keep-going", True, {})],
    "cs440": ([(a, 20, dens, "keep-going", mc, {})
               for a in ("basic", "linalg-plus") for mc in (True, False)
               for dens in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)]
              + [(a, 20, dens, "keep-going", False, kw)
                 for a, kw in (("probability", {}), ("risk", {}),
                               ("risk", {"risk_rules": "basic"}))
                 for dens in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)]),
    "patel2020": [(a, d, dens, "keep-going", False, {})
                  for a in ("basic", "subset", "probability", "threshold")
                  for d in (10, 20, 30, 40, 50) for dens in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)],
    "dhurandhar": [(a, d, ("mines", m), "classic", False, {"first_cell": (0, 0)})
                   for a in ("basic", "inference", "probability", "linalg", "linalg-plus",
                             "bruteforce", "linalg-bruteforce", "subset", "threshold", "risk")
                   for d, m in ((9, 10), (16, 40), (30, 185))],
}
# games per cell where the agent is too slow for --games (docs/pages/studies/reports.md),
# by (study, agent, side): the 2019 study's timing-only board. (risk plays every cell at
# full size since its what-ifs re-count only what they touch: issue 47.)
SLOW = {("rele2019", "basic", 50): 200, ("rele2019", "linalg", 50): 100}


def main(argv=None):
    from reports_figures import draw_all  # (this folder's figure script)

    study_main(argv, "reports", __doc__, STUDIES, 2000, SEED, SLOW, draw_all)


if __name__ == "__main__":
    main()
