"""The option table's validators: ``check(value, ctx)`` of each row of
:data:`fastsweep.options.OPTIONS` returns the validated value or raises a ValueError naming
the option and what is allowed (``ctx``: the options validated so far, in table order, and
``ctx["raw"]`` the caller's values)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .agents import AGENTS, agent_info
from .kernels.inference.count import MAX_BUDGET
from .config import (
    FIRST_CLICKS, RULES, _is_int, check_density, parse_first_cell, parse_layout,
    resolve_mines,
)

def check_mines(v, c):
    if c["layout"] is not None:
        return int(c["layout"].sum())
    h, w = c["size"]
    return resolve_mines(v, c["raw"].get("density"), h * w)


def check_density_option(v, c):
    return None if v is None or c["layout"] is not None else check_density(v)


def check_layout(v, c):
    if v is None:
        return None
    if c["raw"].get("mines") is not None or c["raw"].get("density") is not None:
        raise ValueError("mines/density: do not give mines or density with an explicit layout")
    return parse_layout(v, *c["size"])


def check_rules(v, c):
    if v not in RULES:
        raise ValueError(f"rules: unknown rules {v!r}; allowed: {', '.join(RULES)}")
    return v


def check_first_click(v, c):
    if v is None:
        v = "safe" if c["rules"] == "classic" else "any"
    if v not in FIRST_CLICKS:
        raise ValueError(f"first_click: unknown rule {v!r}; allowed: {', '.join(FIRST_CLICKS)}")
    return v


def check_first_cell(v, c):
    if v is None:
        v = "corner" if c["rules"] == "classic" else "random"
    return parse_first_cell(v, *c["size"])


def check_mine_count(v, c):
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"mine_count: expected True or False, got {v!r}")
    return bool(v)


# (check_prior and check_budget also check the inference API's arguments: ``c`` unused)
def check_prior(v, c):
    # (a huge int is compared exactly: float(10**400) would raise OverflowError)
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or v != v or not 0 < v < 1:
        raise ValueError(f"prior: must be a number strictly between 0 and 1, got {v!r}")
    return float(v)


def check_budget(v, c):
    if not _is_int(v) or not 0 <= v <= MAX_BUDGET:
        raise ValueError(f"budget: must be an integer in [0, 2**24] (0 = the default, 2**20; "
                         f"memory grows with it), got {v!r}")
    return int(v)


MAX_COMPONENT = 30  # bruteforce enumerates up to 2**max_component layouts per component
RISK_RULES = ("complete", "basic")


def check_threshold(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.0 < v < 1.0:
        raise ValueError(f"threshold: must be a number strictly between 0 and 1, got {v!r}")
    return float(v)


def check_risk_rules(v, c):
    if v not in RISK_RULES:
        raise ValueError(f"risk_rules: unknown rules {v!r}; allowed: {', '.join(RISK_RULES)}")
    return v


def check_max_component(v, c):
    if not _is_int(v) or not 1 <= v <= MAX_COMPONENT:
        raise ValueError(f"max_component: must be an integer in [1, {MAX_COMPONENT}] (cells of "
                         f"the largest frontier component bruteforce enumerates), got {v!r}")
    return int(v)


MAX_ENDGAME = 20000  # layouts (the endgame trace packs wins and layouts below 2**15)
MAX_ENDGAME_NODES = 10**9


def check_endgame(v, c):
    if not _is_int(v) or not 0 <= v <= MAX_ENDGAME:
        raise ValueError(f"endgame: must be an integer in [0, {MAX_ENDGAME}] (layouts; 0: "
                         f"no endgame search), got {v!r}")
    return int(v)


def check_endgame_nodes(v, c):
    if not _is_int(v) or not 1 <= v <= MAX_ENDGAME_NODES:
        raise ValueError(f"endgame_nodes: must be an integer in [1, 10**9] (search nodes a "
                         f"move), got {v!r}")
    return int(v)


def check_candidate_cut(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.0 < v <= 1.0:
        raise ValueError(f"candidate_cut: must be a number in (0, 1] (1: only the safest "
                         f"cells), got {v!r}")
    return float(v)


def check_switch(name):
    """The validator of an on/off option ``name``."""
    def check(v, c):
        if not isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name}: expected True or False, got {v!r}")
        return bool(v)
    return check


def check_noise(v, c):
    from .noise import parse_noise

    return parse_noise(v).spec


def check_noise_aware(v, c):
    agent = c["agent"]
    able = agent_info(agent).noise_aware
    if v is None:
        return able and c["noise"] != "none"
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"noise_aware: expected True, False or None (the agent's own), got {v!r}")
    if v and not able:
        raise ValueError(f"noise_aware: agent {agent!r} cannot reason under noise; noise-aware "
                         f"agents: {', '.join(a for a, i in AGENTS.items() if i.noise_aware)}")
    if not v and c["noise"] == "none":  # trusting exact clues would mean nothing
        raise ValueError("noise_aware: trusting the clues (False) needs a noise model, "
                         "noise=SPEC: without noise every clue is exact and every agent "
                         "trusts it")
    return bool(v) and c["noise"] != "none"


def check_flag_threshold(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.5 <= v <= 1.0:
        raise ValueError(f"flag_threshold: must be a number in [0.5, 1] (1: flag only certain "
                         f"mines), got {v!r}")
    if v < 1.0 and not (c["agent"] == "probability" and c["noise_aware"]):
        raise ValueError("flag_threshold: below 1 only for the probability agent reasoning "
                         "under noise (a noise model, and not trusting the clues): under "
                         "exact clues every flag must be a mine")
    return float(v)


def noise_slots(cfg, kg):
    from .noise import parse_noise

    m = parse_noise(cfg.noise)
    return m.model, m.cut_a, m.cut_b, m.a, m.b
