"""Options per agent: an option the chosen agent does not read is refused by every entry
point (run, play, sweep, advise, ManualGame, the CLI), naming the option and what the
agent reads; every option an agent reads is accepted; the advisor takes every agent's
options (the look-ahead's and the noise ones too) and they reach the kernel."""
import numpy as np
import pytest

import fastsweep
from fastsweep import AGENTS
from fastsweep.advisor.manual import MANUAL_OPTIONS
from fastsweep.options import BY_NAME, DEFAULTS, GAME, kernel_params, make_config, reads

from cli_helper import run_cli

# a value other than the default for each agent option (refused where not read)
OTHER = {"prior": 0.3, "budget": 5000, "threshold": 0.2, "risk_rules": "basic",
         "max_component": 12, "noise_aware": True, "flag_threshold": 0.9, "endgame": 50,
         "endgame_nodes": 5000, "candidate_cut": 0.8, "pseudo_fifty": False,
         "corner_opening": False, "offedge_limit": True, "fifty_blocks": True,
         "far_ties": False}


def test_every_agent_option_has_a_value_to_try():
    agent_options = {o for o in BY_NAME if o not in GAME}
    assert agent_options == set(OTHER)
    assert all(OTHER[k] != DEFAULTS[k] for k in OTHER)


def _not_read(agent):
    return next(k for k in OTHER if k not in AGENTS[agent].options)


@pytest.mark.parametrize("agent", [a for a in AGENTS if set(OTHER) - set(AGENTS[a].options)])
def test_an_option_the_agent_does_not_read_is_refused(agent, capsys):
    name = _not_read(agent)
    msg = f"{name}: agent '{agent}' does not read this option; it reads "
    with pytest.raises(ValueError, match=msg) as e:
        fastsweep.run(agent, 9, mines=10, games=1, **{name: OTHER[name]})
    for opt in reads(agent):  # the message lists what the agent reads
        assert opt in str(e.value)
    with pytest.raises(ValueError, match=msg):
        fastsweep.play(agent, 9, mines=10, **{name: OTHER[name]})
    with pytest.raises(ValueError, match=msg):
        fastsweep.advise([[-1] * 3] * 3, 1, agent, **{name: OTHER[name]})
    with pytest.raises(ValueError, match=msg):
        fastsweep.ManualGame([[-1] * 3] * 3, 1, agent, **{name: OTHER[name]})
    with pytest.raises(ValueError, match=msg):
        fastsweep.sweep([agent], 9, mines=[10], games=10, workers=1, **{name: OTHER[name]})
    flag = BY_NAME[name].flag
    value = [] if isinstance(OTHER[name], bool) else [str(OTHER[name])]
    if isinstance(OTHER[name], bool) and not OTHER[name]:
        flag = "--no-" + flag[2:]
    code, out, err = run_cli(capsys, "run", "--agent", agent, "--size", "9", "--mines", "10",
                             "--games", "1", flag, *value)
    assert code == 2 and f"{flag.replace('--no-', '--')}" in err.replace("--no-", "--")
    assert "does not read this option" in err and err.count("\n") == 1


@pytest.mark.parametrize("agent", list(AGENTS))
def test_every_option_the_agent_reads_is_accepted(agent):
    mine = {k: OTHER[k] for k in AGENTS[agent].options if k in OTHER}
    if mine.get("noise_aware"):
        mine["noise"] = "detector:p_neg=0.1,p_pos=0.1"
    cfg = make_config(agent, 9, mines=10, **mine)
    for k, v in mine.items():
        assert getattr(cfg, k) == v or k == "noise"


def test_a_sweep_refuses_an_option_none_of_its_agents_reads():
    with pytest.raises(ValueError, match=r"endgame: no agent of this sweep \(basic, "
                                         r"probability\) reads this option; agents that "
                                         r"do: lookahead"):
        fastsweep.sweep(["basic", "probability"], 5, mines=[3], games=4, workers=1,
                        endgame=50)


def test_a_sweep_takes_an_option_one_of_its_agents_reads():
    r = fastsweep.sweep(["basic", "probability"], 5, mines=[3], games=4, workers=1,
                        mine_count=[False], prior=0.3, quiet=True)
    assert set(r.summary.agent) == {"basic", "probability"}


def test_the_default_value_is_not_an_option_given():
    # every entry point takes each option with its default: a default changes no game
    fastsweep.run("basic", 5, mines=3, games=1, endgame=DEFAULTS["endgame"], prior=0.5)


def test_the_advisor_takes_every_agents_options_and_they_reach_the_kernel():
    assert {k for k in OTHER} <= set(MANUAL_OPTIONS) and "noise" in MANUAL_OPTIONS
    view = [[-1] * 4] * 4
    g = fastsweep.ManualGame(view, 3, "lookahead", endgame=50, candidate_cut=0.8,
                             far_ties=False, fifty_blocks=True)
    want, _ = kernel_params(make_config("lookahead", 4, mines=3, mine_count=True,
                                        first_click="safe", first_cell="corner",
                                        endgame=50, candidate_cut=0.8, far_ties=False,
                                        fifty_blocks=True))
    got = g.params.copy()
    assert np.array_equal(got, want)
    _, f = kernel_params(make_config("lookahead", 4, mines=3, candidate_cut=0.8))
    assert np.array_equal(g.fparams, f)
    g = fastsweep.ManualGame(view, 3, "probability", noise="detector:p_neg=0.1,p_pos=0.1",
                             noise_aware=True, flag_threshold=0.9)
    assert g.cfg.noise_aware is True and g.cfg.flag_threshold == 0.9
    with pytest.raises(ValueError, match="rules: not an option of a manual game"):
        fastsweep.ManualGame(view, 3, "probability", rules="classic")


def test_the_advise_command_takes_the_lookahead_options(tmp_path, capsys):
    pos = tmp_path / "p.txt"
    pos.write_text("1 ? ?\n1 ? ?\n? ? ?\n")
    code, out, err = run_cli(capsys, "advise", str(pos), "--mines", "2", "--agent",
                             "lookahead", "--endgame", "50", "--no-far-ties")
    assert code == 0 and "lookahead agent" in out, err
    code, out, err = run_cli(capsys, "advise", str(pos), "--mines", "2", "--agent", "basic",
                             "--endgame", "50")
    assert code == 2 and "--endgame" in err and "does not read" in err


def test_agents_live_in_the_registry_only():
    """The kernels know guess rules and reductions (their family's variants), not agents:
    no kernel module numbers an agent, and each agent is one (family, variant) pair."""
    import pathlib
    import re

    import fastsweep
    from fastsweep.agents import AGENTS

    root = pathlib.Path(fastsweep.__file__).parent / "kernels"
    for path in root.rglob("*.py"):
        assert not re.search(r"^AGENT_\w+\s*=\s*\d", path.read_text(), re.M), path
    pairs = [(a.family, a.variant) for a in AGENTS.values()]
    assert len(set(pairs)) == len(pairs)
