"""The option table drives make_config, run / play / sweep, the CLI and the kernel
parameters; sweep's single-valued options (prior, budget) are stored and checked on resume."""
import importlib
import inspect
import json

import numpy as np
import pytest

from fastsweep.cli import main as cli
from fastsweep import play, run
from fastsweep.kernels.engine import game as kg
from fastsweep.kernels.engine import layout as kl
from fastsweep.options import OPTIONS, kernel_params, make_config

SW = importlib.import_module("fastsweep.sweep")  # fastsweep.sweep is the function


def _flags(command):
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    return {s for a in sub.choices[command]._actions for s in a.option_strings}


def test_every_option_reaches_every_entry_point():
    for fn in (run, play, make_config):
        params = inspect.signature(fn).parameters
        for o in OPTIONS:
            if fn is not make_config:
                assert o.name in params, (fn.__name__, o.name)
                if o.name != "size":
                    assert params[o.name].default == o.default, (fn.__name__, o.name)
    sweep_params = inspect.signature(SW.sweep).parameters
    for o in OPTIONS:
        if o.sweep is not None:
            assert o.keyword in sweep_params, o.name
        if o.sweep == "single":
            assert sweep_params[o.name].default == o.default, o.name
    for cmd in ("run", "play", "sweep"):
        flags = _flags(cmd)
        for o in OPTIONS:
            if o.flag is not None and (cmd != "sweep" or o.sweep is not None):
                assert o.flag in flags, (cmd, o.flag)
    # the Python-only row (a fixed layout) is not a sweep option and has no flag
    assert [o.name for o in OPTIONS if o.flag is None] == ["layout"]
    assert {"--prior", "--budget"} <= _flags("sweep")


def _table_flags(parser):
    """{flag: (dest, default, required, type, store_true)} of the option table's flags."""
    table = {o.flag for o in OPTIONS if o.flag}
    req = {a for g in parser._mutually_exclusive_groups if g.required
           for a in g._group_actions}
    return {a.option_strings[0]: (a.dest, a.default, a.required or a in req, a.type,
                                  a.nargs == 0)
            for a in parser._actions if a.option_strings and a.option_strings[0] in table}


def test_add_flags_makes_run_play_and_sweep_style_flags():
    import argparse

    from fastsweep.options import add_flags

    p = argparse.ArgumentParser()
    add_flags(p)
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command").choices
    for cmd in ("run", "play"):  # they take their game options from the helper
        assert _table_flags(sub[cmd]) == _table_flags(p)
    flags = _table_flags(p)
    assert set(flags) == {o.flag for o in OPTIONS if o.flag}
    assert flags["--size"][2] and flags["--mines"][2] and flags["--density"][2]
    assert flags["--prior"] == ("prior", 0.5, False, float, False)
    assert flags["--mine-count"][4] and not flags["--rules"][2]
    a = p.parse_args(["--size", "9", "--density", "0.2", "--prior", "0.3", "--budget", "7",
                      "--first-cell", "1,2", "--mine-count"])
    assert (a.density, a.prior, a.budget, a.first_cell, a.mine_count) == (0.2, 0.3, 7, "1,2",
                                                                          True)
    with pytest.raises(SystemExit):
        p.parse_args(["--size", "9", "--mines", "3", "--density", "0.2"])
    # sweep style: the same flags as the sweep command's own loop builds today (so
    # sweep_cli can call add_flags(parser, sweep=True) instead, with nothing changed)
    s = argparse.ArgumentParser()
    add_flags(s, sweep=True)
    assert _table_flags(s) == _table_flags(sub["sweep"])
    a = s.parse_args(["--size", "10,16x30", "--density", "0.1:0.3:0.1", "--prior", "0.2"])
    assert (a.sizes, a.densities, a.mines, a.mine_count, a.prior) == (
        "10,16x30", "0.1:0.3:0.1", None, "both", 0.2)


def test_kernel_slots_exist_and_match_the_old_parameters():
    for o in OPTIONS:
        if o.slot is not None:
            for slot in (o.slot if isinstance(o.slot, tuple) else (o.slot,)):
                assert slot.startswith(("P_", "F_")) and hasattr(kg, slot), slot
            assert o.to_kernel is not None
    # check=False: every slot's mapping, including options probability does not read
    cfg = make_config("probability", (16, 30), check=False, mines=99, rules="classic",
                      mine_count=True, prior=0.25, budget=1234, threshold=0.2, risk_rules="basic",
                      max_component=7)
    p, f = kernel_params(cfg, seed=2**64 - 1)
    expect = np.zeros(kg.P_LEN, np.int64)
    expect[[kg.P_RULES, kg.P_FIRST_CLICK, kg.P_FIRST_CELL, kg.P_MINES, kg.P_MINE_COUNT,
            kg.P_BUDGET]] = [kg.RULES_CLASSIC, kg.FIRST_SAFE, 0, 99, 1, 1234]
    from fastsweep.agents import variant_of

    expect[kg.P_VARIANT] = variant_of("probability")
    expect[[kg.P_H, kg.P_W, kg.P_SEED]] = [16, 30, -1]  # the seed's uint64 bits
    expect[[kg.P_RISK_RULES, kg.P_MAX_COMPONENT]] = [1, 7]
    expect[[kg.P_ENDGAME_MAX, kg.P_ENDGAME_NODES]] = [1000, 1_000_000]  # lookahead's defaults
    expect[kg.P_CORNER] = 1  # its corner opening, on by default since 2026-11-27
    expect[[kg.P_PSEUDO, kg.P_FAR]] = 1  # pseudo-50/50s and far ties, since 2026-11-28
    # no noise: model 0, cut-offs 0, not noise-aware; flag threshold 1; candidate cut 0.9
    assert p.tolist() == expect.tolist() and f.tolist() == [0.25, 0.2, 0.0, 0.0, 1.0, 0.9]
    noisy = make_config("probability", 9, mines=10, noise="detector:p_neg=0.25,p_pos=0.5",
                        flag_threshold=0.75)
    p, f = kernel_params(noisy)
    assert [p[kg.P_NOISE], p[kg.P_NOISE_CUT_A], p[kg.P_NOISE_CUT_B], p[kg.P_NOISE_AWARE]] == \
        [kl.NOISE_DETECTOR, 2 ** 28, 2 ** 29, 1]
    assert [f[kg.F_NOISE_A], f[kg.F_NOISE_B], f[kg.F_FLAG_THRESHOLD]] == [0.25, 0.5, 0.75]


def test_make_config_rejects_unknown_options():
    with pytest.raises(TypeError, match="nosuch"):
        make_config("basic", 5, mines=3, nosuch=1)


BAD = [("prior", 1.5, "prior: must be a number strictly between 0 and 1"),
       ("prior", 0.0, "prior: must be"),
       ("budget", -1, r"budget: must be an integer in \[0, 2\*\*24\]"),
       ("budget", 2**24 + 1, r"budget: must be an integer in \[0, 2\*\*24\]"),
       ("first_click", "sometimes", "first_click: unknown rule"),
       ("first_cell", "9,9", "first_cell:")]


@pytest.mark.parametrize("name,value,msg", BAD)
def test_bad_values_name_the_argument_everywhere(tmp_path, capsys, name, value, msg):
    kw = {name: value}
    with pytest.raises(ValueError, match=msg):
        run("basic", 5, mines=3, **kw)
    with pytest.raises(ValueError, match=msg):
        play("basic", 5, mines=3, **kw)
    with pytest.raises(ValueError, match=msg):
        SW.sweep(["basic"], 5, mines=[3], games=5, out=str(tmp_path / "o"), quiet=True, **kw)
    assert not (tmp_path / "o").exists()
    flag = "--" + name.replace("_", "-")
    for argv in (["run", "--size", "5", "--mines", "3", "--games", "1"],
                 ["play", "--size", "5", "--mines", "3"],
                 ["sweep", "--size", "5", "--mines", "3", "--games", "5", "--quiet"]):
        with pytest.raises(SystemExit) as e:
            cli.main(argv + [flag, str(value)])
        assert e.value.code == 2
        err = capsys.readouterr().err
        # the CLI names the flag, not the Python keyword
        assert err.startswith(f"fastsweep {argv[0]}: error: {flag}: ") and err.count("\n") == 1


GRID = dict(agents=["probability"], sizes=[7], densities=[0.3], games=40, chunk_games=20,
            mine_count=[False], seed=5, workers=1, quiet=True)


def test_sweep_prior_budget_reproducible_stored_and_checked_on_resume(tmp_path):
    out = str(tmp_path / "o")
    r = SW.sweep(out=out, prior=0.2, budget=64, **GRID)
    ref = run("probability", 7, density=0.3, games=40, seed=5, prior=0.2, budget=64)
    assert r.summary.mean_score[0] == pytest.approx(ref.score.mean(), abs=1e-12)
    assert r.summary.mean_guesses[0] == ref.guesses.mean()
    p = json.loads((tmp_path / "o" / "params.json").read_text())
    assert (p["prior"], p["budget"]) == (0.2, 64)
    # the same call resumes (nothing to play), another prior or budget is refused
    again = SW.sweep(out=out, prior=0.2, budget=64, **GRID)
    assert again.summary.equals(r.summary)
    with pytest.raises(ValueError, match=r"different parameters \(prior\)"):
        SW.sweep(out=out, prior=0.3, budget=64, **GRID)
    with pytest.raises(ValueError, match=r"different parameters \(budget\)"):
        SW.sweep(out=out, prior=0.2, **GRID)
    loaded = SW.load(out)
    assert loaded.summary.drop(columns=list(SW.TIMING_COLUMNS)).equals(
        r.summary.drop(columns=list(SW.TIMING_COLUMNS)))
    # the prior reaches the kernels: with the default the agent guesses differently
    other = SW.sweep(**GRID)
    assert other.params["prior"] == 0.5 and other.params["budget"] == 0
    assert other.summary.mean_score[0] != r.summary.mean_score[0]


def test_folder_without_prior_and_budget_still_resumes_and_loads(tmp_path):
    """A folder written before sweep took prior/budget has no such keys in params.json:
    it was played with the defaults, and resumes and loads as such."""
    out = tmp_path / "o"
    grid = dict(GRID, games=60)
    whole = SW.sweep(out=str(out), **grid)
    pfile = out / "params.json"
    p = json.loads(pfile.read_text())
    del p["prior"], p["budget"]
    pfile.write_text(json.dumps(p, indent=1) + "\n")
    # drop the last chunk and the summaries: resuming plays it again
    lines = (out / "chunks.jsonl").read_text().splitlines(keepends=True)
    (out / "chunks.jsonl").write_text("".join(lines[:-1]))
    (out / "summary.csv").unlink()
    resumed = SW.sweep(out=str(out), **grid)
    core = list(SW.TIMING_COLUMNS)
    assert resumed.summary.drop(columns=core).equals(whole.summary.drop(columns=core))
    assert SW.load(str(out)).summary.drop(columns=core).equals(whole.summary.drop(columns=core))
    assert "prior" not in json.loads(pfile.read_text())  # the folder is not rewritten
    with pytest.raises(ValueError, match=r"different parameters \(prior\)"):
        SW.sweep(out=str(out), prior=0.4, **grid)


def test_reference_pages_are_rendered_from_the_code():
    """docs/pages/reference/*.md equal a fresh rendering (re-render with
    ``python -m fastsweep.reference docs/pages/reference`` after changing the table)."""
    import os

    from fastsweep import reference

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name, render in reference.PAGES.items():
        with open(os.path.join(root, "docs", "pages", "reference", name), encoding="utf-8") as f:
            assert f.read() == render(), f"docs/pages/reference/{name} is stale"


def test_defaults_are_written_once():
    """GameConfig has no defaults (make_config fills every field from the table), the
    entry points' signatures are made from the table, and the record digests' neutral
    values come from its ``neutral`` column."""
    import dataclasses

    from fastsweep.config import GameConfig
    from fastsweep.sweep.folder.integrity import FIXED_LATER

    for f in dataclasses.fields(GameConfig):
        assert f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    assert {f.name for f in dataclasses.fields(GameConfig)} == (
        {o.name for o in OPTIONS} - {"size", "density"} | {"agent", "height", "width"})
    assert FIXED_LATER == {o.name: o.neutral for o in OPTIONS if o.name in FIXED_LATER}
    assert set(FIXED_LATER) == {"threshold", "risk_rules", "max_component", "noise",
                                "noise_aware", "flag_threshold", "endgame", "endgame_nodes",
                                "candidate_cut", "pseudo_fifty", "corner_opening",
                                "offedge_limit", "fifty_blocks", "far_ties"}
    with pytest.raises(TypeError, match=r"endgam: not an option of the game or of any agent"):
        run("lookahead", 5, mines=3, endgam=5)
