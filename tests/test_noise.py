"""Noisy sensors: what each model shows, the noise-aware posterior, and every agent under
noise.

* the shown values equal a plain-Python sensor (same hash draws) reveal for reveal, and
  follow their model's distribution (a chi-square over many reveals, fixed seed);
* noise 0 reproduces the noiseless games exactly, for every agent;
* the likelihood rows equal an independent enumeration of each model, and the posterior
  equals brute force over every layout (1e-12); in games, every traced guess of the
  noise-aware probability agent has the brute-force posterior of the position;
* noise-aware agents never flag a safe cell or detonate a cell they deduced safe; every
  agent finishes every game under every model; bad specs are refused.
"""
import functools
import itertools
import math

import numpy as np
import pytest

import fastsweep
from fastsweep import AGENTS
from fastsweep.kernels.engine import layout as kl
from fastsweep.kernels.inference import noisy
from fastsweep.noise import parse_noise
from naive import GOLDEN, MASK, brute_force_view, game_rng, mix64, neighbours

MODELS = ["detector:p_neg=0.2,p_pos=0.1", "reveal:p=0.6", "optimistic:p=0.7",
          "cautious:p=0.7"]
ZERO = ["detector:p_neg=0,p_pos=0", "reveal:p=1", "optimistic:p=0", "cautious:p=0"]
BLANK = 9  # the category of "nothing shown" in the frequency tables


# ---------------------------------------------------------------- a plain-Python sensor

def _key(seed, game):
    k = game_rng(seed, game, 2)
    return (k & 0x7FFFFFFF) | (((k >> 31) & 0x7FFFFFFF) << 31)


def _draw(key, cell, d):
    return mix64((key + (cell * 16 + d + 1) * GOLDEN) & MASK)


def _below(key, cell, d, p):
    return (_draw(key, cell, d) >> 34) < round(p * 2 ** 30)


def _uniform(key, cell, d, lo, hi):
    return lo + int(((_draw(key, cell, d) >> 11) * 2.0 ** -53) * (hi - lo + 1))


def naive_shown(noise, key, h, w, mine, cell, m, hid):
    """What the sensor shows on revealing safe ``cell`` (BLANK: nothing), from the model's
    definition; ``m``, ``hid``: the agent's known-mine and hidden neighbours then."""
    nz = parse_noise(noise)
    nb = neighbours(h, w, cell)
    true = sum(mine[d] for d in nb)
    if nz.name == "detector":
        # the kernel draws by direction (0..7 in row-major order of the 3x3 block)
        r, c = divmod(cell, w)
        v = 0
        for k, (dr, dc) in enumerate((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                                     if (a, b) != (0, 0)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < h and 0 <= cc < w):
                continue
            if mine[rr * w + cc]:
                v += 0 if _below(key, cell, k, nz.a) else 1
            else:
                v += 1 if _below(key, cell, k, nz.b) else 0
        return v
    if nz.name == "reveal":
        return true if _below(key, cell, 8, nz.a) else BLANK
    if not _below(key, cell, 8, nz.a):
        return true
    if nz.name == "optimistic":
        return _uniform(key, cell, 9, min(m, true), true)
    return _uniform(key, cell, 9, true, max(true, m + hid))


@functools.lru_cache(maxsize=None)
def model_pmf(noise, n, true, m, hid):
    """P(shown = v), v = 0..8 and BLANK, straight from the model's definition (the
    detector by enumerating which neighbours are misread)."""
    nz = parse_noise(noise)
    out = np.zeros(10)
    if nz.name == "detector":
        for flips in itertools.product((0, 1), repeat=n):
            p = 1.0
            v = 0
            for j, f in enumerate(flips):
                q = nz.a if j < true else nz.b  # the first `true` neighbours are mines
                p *= q if f else 1 - q
                v += (1 - f) if j < true else f
            out[v] += p
        out.flags.writeable = False
        return out
    if nz.name == "reveal":
        out[true] = nz.a
        out[BLANK] = 1 - nz.a
        out.flags.writeable = False
        return out
    out[true] += 1 - nz.a
    lo, hi = (min(m, true), true) if nz.name == "optimistic" else (true, max(true, m + hid))
    out[lo:hi + 1] += nz.a / (hi - lo + 1)
    out.flags.writeable = False  # (cached)
    return out


def reveals(trace, cfg):
    """(cell, shown, known-mine and hidden neighbours at the reveal) of each reveal of a
    traced game, from its moves alone."""
    h, w = cfg.height, cfg.width
    done = np.zeros(h * w, bool)
    mine_known = np.zeros(h * w, bool)
    out = []
    for mv in trace.moves.itertuples(index=False):
        c = int(mv.cell_index)
        if mv.out >= 0 or mv.out == kl.OUT_BLANK:
            nb = neighbours(h, w, c)
            out.append((c, BLANK if mv.out == kl.OUT_BLANK else int(mv.out),
                        int(mine_known[nb].sum()), int((~done[nb]).sum())))
        done[c] = True
        mine_known[c] = mv.out < 0 and mv.out != kl.OUT_BLANK
    return out


# ---------------------------------------------------------------- the sensor

@pytest.mark.parametrize("noise", MODELS + ["optimistic", "cautious"])
def test_shown_values_equal_a_plain_python_sensor(noise):
    checked = 0
    for agent in ("basic", "probability"):
        for game in range(6):
            t = fastsweep.play(agent, (7, 9), density=0.2, seed=5, game=game, noise=noise)
            h, w = 7, 9
            mine = t.mines.ravel()
            key = _key(5, game)
            for c, shown, m, hid in reveals(t, t.config):
                assert shown == naive_shown(noise, key, h, w, mine, c, m, hid), (agent, game, c)
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("noise", MODELS)
def test_shown_values_follow_their_model(noise):
    """Chi-square of the shown values against the model, reveals grouped by their
    distribution (fixed seed; generous threshold)."""
    groups = {}
    for game in range(150):
        t = fastsweep.play("basic", 10, density=0.2, seed=9, game=game, noise=noise)
        mine = t.mines.ravel()
        for c, shown, m, hid in reveals(t, t.config):
            nb = neighbours(10, 10, c)
            pmf = model_pmf(noise, len(nb), int(mine[nb].sum()), m, hid)
            g = groups.setdefault(tuple(np.round(pmf, 12)), [pmf, np.zeros(10)])
            g[1][shown] += 1
    stat = 0.0
    df = 0
    perturbed = 0
    for pmf, obs in groups.values():
        n = obs.sum()
        exp = n * pmf
        use = exp >= 5
        if use.sum() < 2:
            continue
        stat += ((obs - exp)[use] ** 2 / exp[use]).sum()
        df += int(use.sum()) - 1
        perturbed += n
    assert df >= 5 and perturbed > 3000
    assert stat < df + 6 * math.sqrt(2 * df) + 10, (stat, df)


def test_the_frequency_test_can_fail():
    # the same tables checked against the wrong model (p_pos 0.1 -> 0.2) fail
    groups = {}
    for game in range(60):
        t = fastsweep.play("basic", 10, density=0.2, seed=9, game=game, noise=MODELS[0])
        mine = t.mines.ravel()
        for c, shown, m, hid in reveals(t, t.config):
            nb = neighbours(10, 10, c)
            pmf = model_pmf("detector:p_neg=0.2,p_pos=0.2", len(nb), int(mine[nb].sum()), m, hid)
            g = groups.setdefault(tuple(np.round(pmf, 12)), [pmf, np.zeros(10)])
            g[1][shown] += 1
    stat, df = 0.0, 0
    for pmf, obs in groups.values():
        exp = obs.sum() * pmf
        use = exp >= 5
        if use.sum() >= 2:
            stat += ((obs - exp)[use] ** 2 / exp[use]).sum()
            df += int(use.sum()) - 1
    assert stat > df + 6 * math.sqrt(2 * df) + 10


@pytest.mark.parametrize("agent", list(AGENTS))
def test_noise_zero_is_the_noiseless_game(agent):
    cols = ["mines", "flagged", "detonated", "revealed", "guesses", "moves", "won",
            "wrong_flags", "safe_detonations", "clues_dropped"]
    games = 8 if AGENTS[agent].slow else 30
    for rules, mc in (("keep-going", False), ("classic", True)):
        ref = fastsweep.run(agent, 8, density=0.18, games=games, seed=4, rules=rules,
                            mine_count=mc)[cols]
        for z in ZERO:
            got = fastsweep.run(agent, 8, density=0.18, games=games, seed=4, rules=rules,
                                mine_count=mc, noise=z)[cols]
            assert got.equals(ref), (agent, rules, z)


# ---------------------------------------------------------------- the posterior

@pytest.mark.parametrize("noise", MODELS + ["detector:p_neg=0,p_pos=0.3",
                                            "detector:p_neg=1,p_pos=0"])
def test_likelihood_rows_equal_the_model(noise):
    nz = parse_noise(noise)
    row = np.zeros(9)
    for n in (3, 5, 8):
        for m in range(0, 3):
            for hid in range(0, n - m + 1):
                for s in range(9):
                    noisy.likelihood(nz.model, nz.a, nz.b, s, n, m, hid, row)
                    for t in range(n + 1):
                        want = model_pmf(noise, n, t, m, hid)[s]
                        if nz.name == "reveal":  # given that a value was shown at all
                            want /= nz.a
                        assert abs(row[t] - want) < 1e-14, (n, m, hid, s, t)
                    assert not row[n + 1:].any()


def _soft_view(rng, noise, h, w):
    """A random position whose clues were shown by the noise model (with a random
    reveal-time context for optimistic / cautious), and its likelihood rows."""
    nz = parse_noise(noise)
    n = h * w
    mine = rng.random(n) < 0.25
    view = np.full(n, -1, np.int8)
    known = mine & (rng.random(n) < 0.3)
    view[known] = -2
    L = np.full((h, w, 9), np.nan)
    row = np.zeros(9)
    for c in np.flatnonzero(~mine & (rng.random(n) < 0.45)):
        nb = neighbours(h, w, c)
        m = int(known[nb].sum())
        hid = int(rng.integers(0, len(nb) - m + 1))
        pmf = model_pmf(noise, len(nb), int(mine[nb].sum()), m, hid)
        s = int(rng.choice(10, p=pmf / pmf.sum()))
        if s == BLANK:
            continue
        view[c] = s
        noisy.likelihood(nz.model, nz.a, nz.b, s, len(nb), m, hid, row)
        L[c // w, c % w] = row
    return view.reshape(h, w), L, int(mine.sum())


@pytest.mark.parametrize("noise", ["detector:p_neg=0.2,p_pos=0.1", "reveal:p=0.6",
                                   "optimistic:p=0.7", "cautious:p=0.7", "cautious"])
def test_posterior_equals_brute_force(noise):
    rng = np.random.default_rng(14)
    checked = 0
    while checked < 40:
        view, L, mines = _soft_view(rng, noise, 4, 4)
        if (view == -1).sum() > 14:
            continue
        for m in (None, mines):
            try:
                _, _, want = brute_force_view(view, m, 0.3, likelihood=L)
            except ValueError:
                continue  # a reveal-time context no layout explains (made up at random)
            got = fastsweep.mine_probabilities(view, m, 0.3, likelihood=L)
            assert np.abs(got - want).max() < 1e-12, (view, m)
            checked += 1


@pytest.mark.parametrize("noise", ["detector:p_neg=0.2,p_pos=0.1", "detector:p_neg=0.3,p_pos=0",
                                   "detector:p_neg=0,p_pos=0.3", "reveal:p=0.6",
                                   "optimistic:p=0.7", "cautious:p=0.7"])
def test_deduction_under_noise_equals_brute_force(noise):
    # deduction alone leaves out the soft clues that rule no layout out (frontier.
    # informative): the certain cells must still be exactly brute force's
    rng = np.random.default_rng(15)
    checked = certain = 0
    while checked < 60:
        view, L, mines = _soft_view(rng, noise, 4, 4)
        if (view == -1).sum() > 14:
            continue
        for m in (None, mines):
            try:
                want_safe, want_mine, _ = brute_force_view(view, m, 0.5, likelihood=L)
            except ValueError:
                continue
            safe, mine = fastsweep.deduce(view, m, likelihood=L)
            assert (safe == want_safe).all() and (mine == want_mine).all(), (view, m)
            checked += 1
            certain += int(want_safe.sum() + want_mine.sum())
    assert certain > 0  # the views decide something (else the check says little)


@pytest.mark.parametrize("noise", ["detector:p_neg=0.15,p_pos=0.1", "optimistic:p=0.6",
                                   "cautious:p=0.6"])
@pytest.mark.parametrize("mine_count", [False, True])
def test_noise_aware_guesses_have_the_brute_force_posterior(noise, mine_count):
    """Each traced guess of the noise-aware probability agent: the position's shown
    values and each reveal's context give the brute-force posterior; the guess is a
    hidden cell of lowest posterior and its traced probability is that posterior."""
    nz = parse_noise(noise)
    h = w = 4
    row = np.zeros(9)
    checked = 0
    for game in range(25):
        t = fastsweep.play("probability", (h, w), mines=3, seed=21, game=game, noise=noise,
                           mine_count=mine_count)
        view = np.full(h * w, -1, np.int8)
        L = np.full((h * w, 9), np.nan)
        ctx = {c: (m, hid) for c, _, m, hid in reveals(t, t.config)}
        for mv in t.moves.itertuples(index=False):
            c = int(mv.cell_index)
            if mv.reason.startswith("mine probability"):
                _, _, want = brute_force_view(view.reshape(h, w), 3 if mine_count else None,
                                              0.5, likelihood=L.reshape(h, w, 9))
                want = want.ravel()
                hidden = view == -1
                assert abs(mv.probability - want[c]) < 1e-9
                assert want[c] <= want[hidden].min() + 1e-9
                checked += 1
            if mv.out == -1 or mv.out == -2:
                view[c] = -2
            elif mv.out == kl.OUT_BLANK:
                view[c] = 0  # safe, no clue: a clue with a flat likelihood
                L[c] = 1.0
            else:
                view[c] = mv.out
                m, hid = ctx[c]
                nbn = len(neighbours(h, w, c))
                noisy.likelihood(nz.model, nz.a, nz.b, int(mv.out), nbn, m, hid, row)
                L[c] = row
    assert checked > 20


# ---------------------------------------------------------------- agents under noise

@pytest.mark.parametrize("noise", MODELS + ["detector:p_neg=0.3,p_pos=0"])
@pytest.mark.parametrize("agent", ["inference", "probability"])
def test_noise_aware_agents_are_sound(noise, agent):
    for mc in (False, True):
        df = fastsweep.run(agent, 9, density=0.15, games=60, seed=2, noise=noise,
                           mine_count=mc)
        assert (df.wrong_flags == 0).all() and (df.safe_detonations == 0).all()
        assert (df.clues_dropped == 0).all()
        assert (df.moves == 81).all()


@pytest.mark.parametrize("agent", list(AGENTS))
def test_every_agent_finishes_under_every_model(agent):
    games = 4 if AGENTS[agent].slow else 25
    for noise in MODELS:
        for aware in ((None, False) if AGENTS[agent].noise_aware else (None,)):
            df = fastsweep.run(agent, 9, density=0.2, games=games, seed=6, noise=noise,
                               noise_aware=aware)
            assert (df.moves == 81).all(), (noise, aware)
            assert (df.flagged >= df.wrong_flags).all()
            c = fastsweep.run(agent, 9, density=0.2, games=games, seed=6, noise=noise,
                              noise_aware=aware, rules="classic")
            assert ((c.detonated == 0) | (c.detonated == 1)).all()


def test_trusting_agents_drop_contradicted_clues_and_pay_for_them():
    noise = "detector:p_neg=0.2,p_pos=0.2"
    trust = fastsweep.run("probability", 12, density=0.15, games=60, seed=3, noise=noise,
                          noise_aware=False)
    assert trust.clues_dropped.sum() > 0
    assert trust.wrong_flags.sum() > 0 and trust.safe_detonations.sum() > 0
    basic = fastsweep.run("basic", 12, density=0.15, games=60, seed=3, noise=noise)
    assert basic.clues_dropped.sum() > 0  # contradicted clues, which its rules ignore


def test_flag_threshold_flags_likely_mines():
    noise = "detector:p_neg=0.1,p_pos=0.1"
    strict = fastsweep.run("probability", 10, density=0.15, games=40, seed=8, noise=noise)
    loose = fastsweep.run("probability", 10, density=0.15, games=40, seed=8, noise=noise,
                          flag_threshold=0.9)
    assert loose.flagged.sum() > strict.flagged.sum()
    assert loose.score.mean() > strict.score.mean()
    # wrong flags are counted, not scored: score = correct flags / mines
    assert np.allclose(loose.score, (loose.flagged - loose.wrong_flags) / loose.mines)
    t = fastsweep.play("probability", 10, density=0.15, seed=8, noise=noise,
                       flag_threshold=0.9)
    flags = t.moves[t.moves.reason.str.startswith("flagged at mine probability")]
    assert len(flags) and all(float(r.split()[4].rstrip(",")) >= 0.9 for r in flags.reason)


def test_common_random_numbers_across_agents():
    """Game i shows the same noise to every agent: under the detector a cell's shown
    value depends only on (seed, game, cell)."""
    same = 0
    for game in range(5):
        a = fastsweep.play("basic", 12, density=0.15, seed=1, game=game, noise=MODELS[0])
        b = fastsweep.play("probability", 12, density=0.15, seed=1, game=game,
                           noise=MODELS[0], noise_aware=False)
        sa = {c: s for c, s, _, _ in reveals(a, a.config)}
        sb = {c: s for c, s, _, _ in reveals(b, b.config)}
        common = set(sa) & set(sb)
        assert all(sa[c] == sb[c] for c in common)
        assert np.array_equal(a.mines, b.mines)
        same += len(common)
    assert same > 100


@pytest.mark.parametrize("agent", list(AGENTS))
def test_agents_under_noise_read_only_what_was_shown(agent):
    """Blind replay under every model: the truth plane zeroed and the environment
    answering from the recorded shown values (blanks included), every agent makes the
    same moves (its likelihoods come from what it observed, not from the board)."""
    from fastsweep.agents import kernels_for
    from fastsweep.kernels.engine import game as kg
    from fastsweep.options import agent_params, make_config

    replayed = 0
    for noise in MODELS:
        cfg = make_config(agent, (6, 7), mines=8, noise=noise)
        params, fparams = agent_params(cfg, 12)
        k = kernels_for(agent)
        for game in range(2 if AGENTS[agent].slow else 4):
            n = cfg.cells
            moves = np.zeros((n, 6), np.int32)
            out = np.zeros((1, kg.OUT_LEN), np.int64)
            k.play_traced(params, fparams, np.zeros(0, np.uint8), game, moves,
                          np.full(n, np.nan), np.zeros((3, n), np.int32), out)
            ref = moves[:int(out[0, kg.OUT_MOVES])].copy()
            tape = np.zeros((n, 6), np.int32)
            tape[:len(ref)] = ref
            got = k.play_blind(params, fparams, np.zeros(0, np.uint8), game, tape)
            assert got == len(ref) and np.array_equal(tape[:got], ref), (noise, game)
            replayed += got
    assert replayed > 100


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("spec,msg", [
    ("gaussian", "unknown model"), ("detector:p_neg=1.5", "in \\[0, 1\\]"),
    ("detector:p_neg=-0.1", "in \\[0, 1\\]"), ("detector:q=0.1", "takes p_neg, p_pos"),
    ("reveal", "needs p"), ("reveal:p=x", "must be a number"), ("optimistic:p", "takes p"),
    ("detector:p_neg=nan", "in \\[0, 1\\]"), (3, "expected a spec string")])
def test_bad_noise_specs(spec, msg):
    with pytest.raises(ValueError, match="noise: .*" + msg):
        fastsweep.run("basic", 5, mines=3, noise=spec)


def test_noise_options_are_checked():
    with pytest.raises(ValueError, match="noise_aware: agent 'basic' cannot"):
        fastsweep.run("basic", 5, mines=3, noise="reveal:p=0.5", noise_aware=True)
    with pytest.raises(ValueError, match="noise_aware: expected"):
        fastsweep.run("probability", 5, mines=3, noise_aware="yes")
    with pytest.raises(ValueError, match="flag_threshold: below 1 only"):
        fastsweep.run("inference", 5, mines=3, noise="optimistic", flag_threshold=0.9)
    with pytest.raises(ValueError, match="flag_threshold: below 1 only"):
        fastsweep.run("probability", 5, mines=3, flag_threshold=0.9)
    with pytest.raises(ValueError, match="flag_threshold: must be"):
        fastsweep.run("probability", 5, mines=3, noise="optimistic", flag_threshold=0.2)
    assert parse_noise("detector:p_neg=0.2, p_pos=0.1").spec == "detector:p_neg=0.2,p_pos=0.1"
    assert parse_noise("Optimistic").spec == "optimistic:p=1.0"
    assert parse_noise("reveal:p=0.3").a == round(0.3 * 2 ** 30) / 2 ** 30


def test_cli_noise_flags(capsys):
    from fastsweep.cli import main as cli

    def main(*argv):
        try:
            code = cli.main(list(argv))
        except SystemExit as e:
            code = e.code
        return (code,) + tuple(capsys.readouterr())

    code, out, err = main("run", "--agent", "basic", "--size", "5", "--mines", "3",
                          "--noise", "gaussian")
    assert code == 2 and out == "" and "--noise: unknown model 'gaussian'" in err
    code, out, err = main("run", "--agent", "basic", "--size", "5", "--mines", "3",
                          "--noise", "reveal:p=0.5", "--trust-clues", "--flag-threshold",
                          "0.9")
    assert code == 2 and "--flag-threshold: below 1 only" in err
    code, out, err = main("run", "--agent", "probability", "--size", "8", "--mines", "8",
                          "--games", "20", "--noise", "detector:p_neg=0.1,p_pos=0.1",
                          "--trust-clues")
    assert code == 0 and "trusting the clues" in out and "wrong flags/game" in out
    code, out, err = main("play", "--agent", "probability", "--size", "6", "--mines", "5",
                          "--noise", "reveal:p=0.3", "--quiet")
    assert code == 0 and "clues dropped" in out


def test_sweeps_under_noise(tmp_path):
    """A sweep under noise: its summary has the noise counters (the same games as run's),
    the same numbers on 1 or 2 workers, and a folder refuses to continue under other
    noise."""
    noise = "detector:p_neg=0.1,p_pos=0.1"
    kw = dict(densities=[0.15], mine_count=[False], games=40, noise=noise, quiet=True)
    one = fastsweep.sweep(["basic", "probability"], 8, workers=1, **kw).summary
    two = fastsweep.sweep(["basic", "probability"], 8, workers=2, **kw).summary
    cols = ["agent", "mean_score", "mean_wrong_flags", "mean_safe_detonations",
            "mean_clues_dropped"]
    pd_equal = one[cols].reset_index(drop=True).equals(two[cols].reset_index(drop=True))
    assert pd_equal
    for agent in ("basic", "probability"):
        df = fastsweep.run(agent, 8, density=0.15, games=40, noise=noise)
        row = one[one.agent == agent].iloc[0]
        assert row.mean_score == pytest.approx(df.score.mean(), abs=1e-12)
        assert row.mean_clues_dropped == pytest.approx(df.clues_dropped.mean(), abs=1e-12)
        assert row.mean_wrong_flags == pytest.approx(df.wrong_flags.mean(), abs=1e-12)
    assert one[one.agent == "basic"].mean_clues_dropped.iloc[0] > 0
    out = str(tmp_path / "o")
    fastsweep.sweep(["basic"], 8, densities=[0.15], mine_count=[False], games=20,
                    workers=1, out=out, noise=noise, quiet=True)
    with pytest.raises(ValueError, match="different parameters"):
        fastsweep.sweep(["basic"], 8, densities=[0.15], mine_count=[False], games=20,
                        workers=1, out=out, noise="reveal:p=0.5", quiet=True)
