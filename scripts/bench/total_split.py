"""Where the probability agent's analysis with the mine total spends its time (issue 47).

Why: the incremental analysis (kernels/inference/incremental.py) re-counts only the changed
components, but with the mine total every component's probabilities depend on all the
others, so the probability agent runs the whole analysis at each guess. Before building
an incremental analysis with the total, this measures what it could save: it walks games
moving as the agent does (deductions of a fresh analysis with the total, else the lowest
probability), keeps every position where the agent guesses, then times on those positions
the stages of the whole analysis with the total (compiled loops here, so no Python call
overhead): the frontier's build, + the forward counts by mine count (count.py steps 1-2),
+ the combination across components with the backward passes (combine.combine_total),
the whole ``count.analyse`` with the total, and without it. Repetitions alternate the
stages (the 2-core VM's speed drifts) and the medians are printed, with the steps per
game. ``--quick``: one 9x9 game, one repetition (seconds once compiled).

    python scripts/bench/total_split.py --board 30x30:0.45 --games 3 --reps 5
"""
import statistics
import time

import numpy as np
from numba import njit

from fastsweep.kernels.agents.policies import act_on_boxes
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine.actions import act
from fastsweep.kernels.engine.env import flat, hidden_left, mines_left_known, ncells, status
from fastsweep.kernels.engine.layout import A_GUESS, F_AUX, HIDDEN, R_PROB_GUESS
from fastsweep.kernels.engine.local import drain_local
from fastsweep.kernels.inference import count as kc
from fastsweep.kernels.inference.combine import combine_total
from fastsweep.kernels.inference.count import _component_weights, _count_components
from fastsweep.kernels.inference.frontier import CB_SIZE, frontier
from fastsweep.options import agent_params, make_config
from fastsweep.studies.script_args import parse, parser

NONE = np.zeros((0, 9), np.float64)


@njit
def _stages(S, reps, upto):
    """The analysis with the total of ``S`` ``reps`` times, stopped after stage ``upto``
    (0 the frontier, 1 the counts, 2 the combination, 3 the whole ``analyse``, 4 the
    whole analysis without the total); returns a checksum (keeps the work alive)."""
    t = 0.0
    for r in range(reps):
        if upto >= 3:
            q = kc.Query(upto == 3, 0.5, 0, True, 0, np.zeros((0, 9), np.float64))
            t += kc.analyse(S, q).pu
            continue
        fr = frontier(S)
        t += fr.nbox
        if upto == 0:
            continue
        fc = 0
        for b in range(fr.nbox):
            fc += fr.box[b, CB_SIZE]
        mleft = mines_left_known(S)
        p = (mleft + 0.5) / (hidden_left(S) + 1.0)
        x = p / (1.0 - p)
        st, ap, cd, cm = _count_components(fr, x, True, kc.DEFAULT_BUDGET, 0)
        bprob = np.empty(max(fr.nbox, 1), np.float64)
        smin, smax = _component_weights(fr, cm, cd, True, bprob)
        t += smin
        if upto == 2:
            t += combine_total(fr, cm, cd, x, bprob, hidden_left(S) - fc, mleft,
                               (smin, smax)).pu
    return t


def guess_positions(size, density, games, seed):
    """(positions where the agent guesses, deduction steps, guess steps)."""
    cfg = make_config("probability", size, density=density, rules="keep-going",
                      mine_count=True)
    params, _ = agent_params(cfg, seed)
    pos, ded = [], 0
    for g in range(games):
        S, scratch = kg.new_batch_state(params, False)
        n = ncells(S)
        kg.open_game(S, kg.setup_game(S, params, np.zeros(0, np.uint8), g, scratch))
        while True:
            drain_local(flat(S), False)
            if kg.game_over(S, False):
                break
            a = kc.analyse(S, kc.Query(True, 0.5, 0, True, kc.METHOD_AUTO, NONE))
            if act_on_boxes(S, a.box, a.nbox, False) != 0 or a.uded:
                ded += 1
                if a.uded:
                    break  # (the total decides the rest: the game is over but for that)
                continue
            pos.append(S.copy())
            hid = [c for c in range(n) if status(S, c) == HIDDEN]
            p = {c: a.bprob[S[c, F_AUX]] if S[c, F_AUX] >= 0 else a.pu for c in hid}
            act(S, min(hid, key=lambda c: (p[c], c)), A_GUESS, R_PROB_GUESS, -1,
                hidden_left(S))
    return pos, ded, len(pos)


def main(argv=None):
    ap = parser("total_split", __doc__, out=False, workers=False, seed=7,
                quick="seconds: one 9x9 game, one repetition")
    ap.add_argument("--board", default="30x30:0.45", help="HxW:density (default 30x30:0.45)")
    ap.add_argument("--games", type=int, default=3, help="games walked (default 3)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (default 5)")
    a = parse(ap, argv)
    if a.quick:
        a.board, a.games, a.reps = "9x9:0.2", 1, 1
    dims, dens = a.board.split(":")
    size = tuple(int(v) for v in dims.split("x"))
    pos, ded, gue = guess_positions(size, float(dens), a.games, a.seed)
    print(f"{a.board}: {ded / a.games:.0f} deduction and {gue / a.games:.0f} guess steps a "
          f"game (each an analysis with the total)")
    names = ["frontier", "+ counts", "+ combination", "analyse, total", "analyse, no total"]
    for k in range(5):
        _stages(pos[0], 1, k)  # (compiles)
    times = [[] for _ in names]
    for r in range(a.reps):
        for k in range(5):
            t = time.perf_counter()
            for S in pos:
                _stages(S, 3, k)
            times[k].append((time.perf_counter() - t) / (3 * len(pos)) * 1e6)
    for k, nm in enumerate(names):
        print(f"  {nm:18s} median {statistics.median(times[k]):7.1f} us a guess position")


if __name__ == "__main__":
    main()
