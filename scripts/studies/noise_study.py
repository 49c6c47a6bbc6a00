"""Noisy sensors studied: what each noise model costs, trusting vs noise-aware agents.

One CSV per study under ``--out`` (default out/noise_study/; the committed results/noise/
is made by scripts/reproduce.py), one row per cell with 95% CIs
(``fastsweep.studies.cells``: resumable, on ``--workers`` processes), figures drawn by
``noise_figures.py`` and run.json:

* ``bonus``: the assignment's bonus, detector noise p_neg/p_pos = 0/0.2, 0.2/0 and
  0.2/0.2 across densities: basic, inference and probability trusting the clues (30x30
  and 16x16), and probability reasoning on the exact posterior (also with
  flag_threshold 0.9; 30x30 and 16x16), inference reasoning on it (30x30 at 2,000
  games a cell since its one-sided deduction needs no counting, 2026-12-02; and 16x16);
  score and wrong flags per mine;
* ``levels``: score against the noise level 0..0.3 at densities 0.1 and 0.2 on 10x10 for
  each model (detector with p_neg = p_pos = level; reveal with p = 1 - level, the share of
  clues not shown; optimistic and cautious with p = level, the share of clues perturbed);
* ``report000``: report 000's settings as far as they can be read (basic agent, 10x10 at
  density 0.2): clues hidden at random (p = 0.02 read both ways), optimistic and cautious
  clues, scored as fastsweep does (correct flags / mines) and as the report did (flags /
  mines, wrong flags included).

Keep-going rules, random opening cell, no mine total; game i of a board has the same
board and the same noise for every agent (common random numbers).

The committed results are the defaults (300 games a cell, 200 for noise-aware
probability on 30x30 and noise-aware inference on 16x16, 2,000 for noise-aware inference
on 30x30: the noise-aware agents took 0.006-0.04 s a 10x10 game, 0.01-0.64 s a 16x16 game
and 1.1-5.1 s a 30x30 game (probability) on the engine of 2026-11-23, two workers on the
loaded 2-core VM; the ``seconds_per_game`` column has each cell's).

Usage: python3 scripts/studies/noise_study.py [--only bonus,levels,report000] [--games 300]
                                              [--workers 2] [--out DIR] [--quick]
  --quick   seconds: each player's cell on the smallest board at the fewest mines, 10 games
"""
from __future__ import annotations

from fastsweep.studies.cells import study_main

SEED = 2024
CASES = ((0.0, 0.2), (0.2, 0.0), (0.2, 0.2))
LEVELS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
# (label, agent, extra options): who plays under noise
PLAYERS = (("basic", "basic", {}),
           ("inference, trusting", "inference", {"noise_aware": False}),
           ("inference, aware", "inference", {}),
           ("probability, trusting", "probability", {"noise_aware": False}),
           ("probability, aware", "probability", {}),
           ("probability, aware, flags at 0.9", "probability", {"flag_threshold": 0.9}))


def level_spec(model, x):
    """The noise spec of ``model`` at noise level ``x``."""
    if model == "detector":
        return f"detector:p_neg={x},p_pos={x}"
    if model == "reveal":
        return f"reveal:p={round(1 - x, 10)}"
    return f"{model}:p={x}"


def _cells(pairs, sizes, densities, players):
    return [(agent, size, dens, "keep-going", False, dict(extra, noise=spec))
            for spec in pairs for size in sizes for dens in densities
            for _, agent, extra in players]


BONUS = [f"detector:p_neg={a},p_pos={b}" for a, b in CASES]
BONUS_DENSITIES = [0.05, 0.1, 0.15, 0.2, 0.25]
TRUSTING = [p for p in PLAYERS if p[0] == "basic" or "trusting" in p[0]]
STUDIES = {
    # noise-aware probability counts every clue as soft with no incremental cache:
    # 0.1-0.2 s a 16x16 game, 1-5 s a 30x30 one on the loaded VM (200 games a 30x30
    # cell, SLOW); noise-aware inference guesses at random, so its frontier spreads over
    # the whole board: up to 0.6 s a 16x16 game (200 games a cell) and 1-5 s and more a
    # 30x30 one: 16x16 only
    # (with both errors, noise-aware probability flagging only certain mines is left out
    # on 30x30: with p_pos > 0 no mine is ever certain, so it flags none, as its 30x30
    # rows under p_pos alone and its 16x16 rows show)
    "bonus": _cells(BONUS[:2], [30], BONUS_DENSITIES, TRUSTING + [PLAYERS[4], PLAYERS[5]])
    + _cells(BONUS[2:], [30], BONUS_DENSITIES, TRUSTING + [PLAYERS[5]])
    + _cells(BONUS, [16], BONUS_DENSITIES, PLAYERS)
    + _cells(["none"], [30, 16], BONUS_DENSITIES, [PLAYERS[0], PLAYERS[4]])  # no noise
    # noise-aware inference on 30x30: every clue a bound of one side under one-sided
    # noise (one_sided.py, no counting) and none informative under two-sided noise
    + _cells(BONUS, [30], BONUS_DENSITIES, [PLAYERS[2]]),
    "levels": _cells(sorted({level_spec(m, x) for m in ("detector", "reveal", "optimistic",
                                                        "cautious") for x in LEVELS}),
                     [10], [0.1, 0.2], [PLAYERS[0], PLAYERS[3], PLAYERS[4]]),
    "report000": _cells(["none", "reveal:p=0.98", "reveal:p=0.02", "optimistic",
                         "cautious"], [10], [0.2], PLAYERS[:1]),
}
# games a cell for these cells instead of the default (run_study: fewer for the slow ones,
# more where the intervals were wide and the games are now cheap)
SLOW = {("bonus", "probability", 30, "aware"): 200, ("bonus", "inference", 16, "aware"): 200,
        ("bonus", "inference", 30, "aware"): 2000}


def main(argv=None):
    from noise_figures import draw_all  # (this folder's figure script)

    study_main(argv, "noise_study", __doc__, STUDIES, 300, SEED, SLOW, draw_all)


if __name__ == "__main__":
    main()
