"""fastsweep.profile: the fits against known laws, the kernels' work counters against a
plain-Python count, the phase clocks, the folder (resume, extend, refuse) and the CLI."""
import math
import os

import numpy as np
import pandas as pd
import pytest

import fastsweep
from fastsweep.kernels.engine import game as kg
from fastsweep.options import make_config
from fastsweep.profile import fit, load
from fastsweep.profile.split import knowledge_work
from fastsweep.runner import play_chunk
from cli_helper import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ------------------------------------------------------------------ the statistics
@pytest.mark.parametrize("df,q", [(1, 12.706), (4, 2.776), (10, 2.228), (30, 2.042),
                                  (1000, 1.962)])
def test_t_quantile_matches_the_tables(df, q):
    assert fit.t_quantile(0.975, df) == pytest.approx(q, abs=1e-3)


def test_betainc_symmetry_and_a_known_value():
    assert fit.betainc(2.0, 3.0, 0.4) == pytest.approx(0.5248, abs=1e-4)
    for a, b, x in [(0.5, 2.5, 0.3), (3.0, 1.5, 0.8), (7.0, 7.0, 0.5)]:
        assert fit.betainc(a, b, x) + fit.betainc(b, a, 1 - x) == pytest.approx(1.0)


@pytest.mark.parametrize("k", [0.5, 1.0, 1.5, 2.3])
def test_fit_recovers_a_power_law_and_its_interval_covers_it(k):
    rng = np.random.default_rng(int(k * 10))
    covered = 0
    for trial in range(60):
        cells = np.repeat([64, 256, 1024, 4096, 16384], 5)
        vals = 3.0 * cells ** k * np.exp(rng.normal(0, 0.05, cells.size))
        f = fit.fit_power(cells, vals)
        assert f.holds and f.broken == ""
        assert abs(f.exponent - k) < 0.05
        assert f.hi - f.lo < 0.1  # (noise of 5% a repeat: a narrow interval)
        covered += f.lo <= k <= f.hi
    assert covered >= 52  # 95% coverage: at least 52 of 60 (binomial, p ~ 0.99)


def test_fit_finds_where_a_law_breaks():
    # constant cost on small boards, then linear: the law holds on the large ones only
    cells = np.repeat([16, 64, 256, 1024, 4096, 16384], 3)
    vals = 1000.0 + 2.0 * cells
    f = fit.fit_power(cells, vals)
    assert f.holds and f.cells_hi == 16384 and f.cells_lo >= 256
    assert "16" in f.broken.split(",")
    assert 0.85 < f.exponent < 1.01
    loc = fit.local_exponents(cells, vals)
    assert loc[0][2] < 0.2 and loc[-1][2] > 0.9  # the regime change, size to size


def test_fit_needs_three_sizes_and_positive_values():
    assert fit.fit_power([10, 10, 20, 20], [1, 1, 2, 2]) is None
    assert fit.fit_power([10, 20, 40], [0, 0, 0]) is None


def test_mean_interval():
    m, lo, hi = fit.mean_interval([1.0, 2.0, 3.0])
    assert m == 2.0 and hi - m == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)


# ------------------------------------------------------------------ the work counters
def _components(view):
    """Plain Python: the frontier's components (clue cells with hidden neighbours and
    those hidden cells, joined by adjacency): their cell counts."""
    h, w = view.shape

    def nbrs(r, c):
        return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w]

    clues = [(r, c) for r in range(h) for c in range(w) if view[r, c] >= 0
             and any(view[p] == -1 for p in nbrs(r, c))]
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for cl in clues:
        for p in nbrs(*cl):
            if view[p] == -1:
                parent[find(p)] = find(cl)
    sizes = {}
    for x in list(parent):
        if view[x] == -1:
            sizes[find(x)] = sizes.get(find(x), 0) + 1
    return sorted(sizes.values())


def test_counters_agree_with_a_plain_count_of_the_components():
    seen = []

    def asker(obs):
        kn = obs.knowledge
        before = knowledge_work(kn._S) if kn._seen else None
        p = kn.mine_probabilities()
        after = knowledge_work(kn._S)
        if before is not None:
            seen.append((obs.view.copy(), after - before, after[2]))
        hidden = np.argwhere(obs.view == -1)
        r, c = min(hidden, key=lambda rc: p[rc[0], rc[1]])
        return int(r), int(c)

    fastsweep.run(asker, 9, density=0.2, games=6, seed=3)
    assert len(seen) > 50
    for view, d, _ in seen:
        comps = _components(view)
        assert d[0] == 1  # one analysis a call (not told the total)
        assert d[1] == len(comps)
        assert d[3] >= 0 and d[4] == 0  # states made; no what-ifs
    # the largest component is a maximum over the game: at least the last call's
    assert all(top >= max(_components(v) or [0]) for v, _, top in seen)


@pytest.mark.parametrize("agent,opts", [("basic", {}), ("probability", {}),
                                        ("inference", {"mine_count": True}),
                                        ("bruteforce", {}),
                                        ("lookahead", {"rules": "classic", "mine_count": True})])
def test_clocks_and_counters_change_no_game(agent, opts):
    cfg = make_config(agent, 9, density=0.15, **opts)
    plain, _, _ = play_chunk(cfg, 5, 0, 30)
    clocked, secs, _ = play_chunk(cfg, 5, 0, 30, phases=True)
    assert plain.shape[1] == kg.OUT_LEN and clocked.shape[1] == kg.OUT_WORK_LEN
    assert (plain == clocked[:, :kg.OUT_LEN]).all()  # the same games
    ph = clocked[:, kg.OUT_PHASE_NS:].sum(axis=1) * 1e-9
    assert (clocked[:, kg.OUT_PHASE_NS:] >= 0).all()
    # the phases partition the game's time after its set-up
    assert (ph <= secs + 1e-6).all() and ph.sum() > 0.5 * secs.sum()
    if agent == "basic":
        assert (clocked[:, kg.OUT_ANALYSES] == 0).all()
        assert (clocked[:, kg.OUT_PHASE_NS + 1:] == 0).all()  # only the rules ran
    else:
        assert (clocked[:, kg.OUT_ANALYSES] > 0).any()
        assert (clocked[:, kg.OUT_STATES] > 0).any()
    if agent == "lookahead":
        assert clocked[:, kg.OUT_WHATIFS].sum() > 0
        assert clocked[:, kg.OUT_PHASE_NS + 4].sum() > 0


# ------------------------------------------------------------------ the driver
def _tiny(agents, out, sizes=(8, 12, 16), **kw):
    return fastsweep.profile(agents, sizes=list(sizes), densities=[0.15], repeats=2,
                             seconds=0.02, out=out, quiet=True, **kw)


def first_hidden(obs):
    hidden = np.argwhere(obs.view == -1)
    return int(hidden[0][0]), int(hidden[0][1])


def test_profile_folder_resumes_extends_and_reads_back(tmp_path):
    out = str(tmp_path / "p")
    r = _tiny(["basic", first_hidden], out)
    assert set(r.summary.agent) == {"basic", "first_hidden"}
    assert len(r.timing) == 2 * 3 * 2  # agents x sizes x repeats
    assert (r.summary.us_per_game_lo <= r.summary.us_per_game).all()
    kinds = dict(zip(r.work.agent, r.work.kind))
    assert kinds == {"basic": "kernel clocks", "first_hidden": "python clocks"}
    py = r.work[r.work.agent == "first_hidden"]
    assert (py.phase_agent > 0).all() and (py.phase_engine > 0).all()
    assert (py.phase_knowledge == 0).all()  # it never asks its knowledge
    again = _tiny(["basic", first_hidden], out)
    assert len(again.timing) == len(r.timing)  # resumed: nothing played again
    more = _tiny(["basic", first_hidden], out, sizes=(8, 12, 16, 20))
    assert len(more.timing) == len(r.timing) + 4
    back = load(out)
    assert len(back.timing) == len(more.timing) and not back.fits.empty
    for f in ("timing.csv", "work.csv", "summary.csv", "fits.csv", "run.json"):
        assert os.path.exists(os.path.join(out, f))
    with pytest.raises(ValueError, match="seed"):
        _tiny(["basic"], out, seed=1)


def test_a_batched_agent_gets_the_python_split(tmp_path):
    agent = os.path.join(ROOT, "examples", "batched_numpy.py") + ":CrudeBatch"
    r = fastsweep.profile([agent], sizes=[8, 12, 16],
                          densities=[0.15], repeats=2, seconds=0.05, quiet=True)
    w = r.work
    assert (w.kind == "python clocks").all()
    assert (w.phase_agent > 0).all() and (w.phase_engine > 0).all()
    assert (w.phase_observation > 0).all()
    # the parts are inside the pass's time (the batch's other work is not in them)
    parts = w[["phase_agent", "phase_knowledge", "phase_observation", "phase_engine"]]
    assert (parts.sum(axis=1) <= w.secs * 1.05).all()


@pytest.mark.parametrize("kw,match", [
    (dict(sizes=[(8, 16)]), "sizes: square"),
    (dict(densities=[1.5]), "densities"),
    (dict(repeats=0), "repeats"),
    (dict(seconds=-1), "seconds"),
    (dict(rules="fast"), "rules"),
    (dict(mine_count="yes"), "mine_count"),
    (dict(agents=["nobody"]), "agents: unknown agent"),
])
def test_profile_names_the_bad_argument(kw, match):
    args = dict(agents=["basic"], sizes=[8, 16, 32], densities=[0.1])
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        fastsweep.profile(**args)


def test_profile_refuses_an_unknown_option():
    with pytest.raises(TypeError, match="colour"):
        fastsweep.profile(["basic"], colour="red")


def test_cli_profile_writes_the_three_figures_and_plot_redraws_them(capsys, tmp_path):
    out = str(tmp_path / "cli")
    code, text, err = run_cli(capsys, "profile", "--agents", "basic,probability", "--sizes",
                              "8,12,16", "--densities", "0.15", "--repeats", "2", "--seconds",
                              "0.02", "--out", out, "--quiet", "--format", "png")
    assert code in (0, None), err
    assert "exponents of time per game" in text
    for name in ("fig_scaling.png", "fig_work.png", "fig_phases.png"):
        assert os.path.getsize(os.path.join(out, name)) > 5000
    os.remove(os.path.join(out, "fig_work.png"))
    code, text, err = run_cli(capsys, "plot", out, "--format", "png")
    assert code in (0, None), err
    assert os.path.exists(os.path.join(out, "fig_work.png"))
    t = pd.read_csv(os.path.join(out, "timing.csv"))
    assert set(t.agent) == {"basic", "probability"}
    code, _, err = run_cli(capsys, "profile", "--agents", "basic", "--mine-count", "maybe",
                           "--out", out)
    assert code == 2 and "mine-count" in err
