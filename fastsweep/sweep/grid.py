"""Arguments of a sweep -> the grid: list parsing (``"a:b:step"``, ``"x,y"``), the members
of each board (agent, mine_count), the chunk size, each board's key (what names its games
in a folder), and :func:`_resolve`, which validates everything and returns the ``params``
dict stored in ``params.json`` plus the boards (:func:`from_params`: the same from a stored
``params.json``). Writes nothing.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import replace
from itertools import product

import numpy as np

from .stopping import CI_METHOD
from ..agents import AGENTS, agent_info, is_agent
from ..user.resolve import resolve_agent
from ..config import check_games, check_seed, parse_size
from ..options import DEFAULTS, make_config, sweep_options
from .folder.integrity import FIXED_LATER, FORMAT  # noqa: F401 (FORMAT: the folder's, re-exported)
from ..values import MAX_AXIS, parse_range  # noqa: F401 (parse_range: used by the sweep too)

# 2: chunk records name their board by key (not by index) and keep per-game scores;
# the CI method is stated once in params.json, not on every summary row
#: Values per grid axis, and configurations per sweep: checked before anything is built.
MAX_CONFIGS = 100_000


def _as_list(x, name):
    if x is None:
        return None
    if isinstance(x, str):
        x = [v for v in x.replace(" ", "").split(",") if v]
    elif not isinstance(x, (list, tuple, np.ndarray)) or (
            name == "sizes" and isinstance(x, tuple) and len(x) == 2
            and all(isinstance(v, numbers.Integral) for v in x)):
        x = [x]  # a scalar, or one (H, W) pair
    x = list(x)
    if not x:
        raise ValueError(f"{name}: empty list; the grid is the product of the lists, so every "
                         f"list needs at least one value")
    return x


def _no_duplicates(vals, name):
    """Refuse an axis with a value twice (it would play the same games twice) or with more
    than MAX_AXIS values."""
    if vals is None:
        return
    if len(vals) > MAX_AXIS:
        raise ValueError(f"{name}: {len(vals):,} values; at most {MAX_AXIS:,} per axis")
    seen = set()
    for v in vals:
        h = tuple(v) if isinstance(v, list) else v
        try:
            if h in seen:
                raise ValueError(f"{name}: {v!r} is given twice; each value once (the grid "
                                 f"would play the same games twice)")
            seen.add(h)
        except TypeError:  # unhashable: validated (and refused) elsewhere
            pass


def _members(agents, mine_count, known=is_agent):
    """[(agent, mine_count)] of each board, from a list or an {agent: list} dict."""
    out = []
    for a in agents:
        if not known(a):
            raise ValueError(f"agents: unknown agent {a!r}; known agents: {', '.join(AGENTS)}")
        mc = mine_count.get(a, [False]) if isinstance(mine_count, dict) else mine_count
        mc = _as_list(mc, "mine_count")
        for v in mc:
            if not isinstance(v, (bool, np.bool_)):
                raise ValueError(f"mine_count: expected True/False values, got {v!r}")
            if (a, bool(v)) not in out:
                out.append((a, bool(v)))
    if isinstance(mine_count, dict):
        extra = set(mine_count) - set(agents)
        if extra:
            raise ValueError(f"mine_count: agents {sorted(extra)} are not in agents={agents}")
    return out


def _label(member):
    return f"{member[0]}:{int(member[1])}"


def member_name(agent, mine_count) -> str:
    """The readable name of a member in tables and messages.

    >>> member_name("inference", True)
    'inference + total'
    """
    return f"{agent} + total" if mine_count else str(agent)


def board_key(bd) -> str:
    """What fixes a board's games besides the root seed and the single-valued options:
    chunk records are filed under it, so a grown grid (boards added or reordered) still
    finds them. File-name safe (per-game files carry it).

    >>> board_key(dict(height=16, width=30, mines=99, rules="classic", first_click="safe",
    ...                first_cell="corner", chunk=42))
    '16x30_m99_classic_safe_corner_c42'
    """
    fc = bd["first_cell"]
    fc = fc if isinstance(fc, str) else f"r{fc[0]}c{fc[1]}"
    return (f"{bd['height']}x{bd['width']}_m{bd['mines']}_{bd['rules']}_{bd['first_click']}_"
            f"{fc}_c{bd['chunk']}")


def chunk_size(cells, chunk_games=None) -> int:
    """Games per chunk: given, or about 20,000 cell-games (10..250) so a chunk is a
    fraction of a second whatever the board (a deterministic function of the board)."""
    if chunk_games is not None:
        return chunk_games
    return int(min(250, max(10, math.ceil(20_000 / cells))))


def _plain(v):
    """A JSON value that round-trips exactly: tuples as lists, numpy scalars as Python's."""
    return list(v) if isinstance(v, tuple) else v.item() if isinstance(v, np.generic) else v


def with_defaults(params: dict) -> dict:
    """``params`` of a folder with every single-valued option filled in: a folder written
    before an option existed (no key for it) was played without it, as its neutral value
    (``integrity.FIXED_LATER``) plays, which is not always today's default."""
    return dict(params, **{o.name: FIXED_LATER.get(o.name, o.default)
                           for o in sweep_options("single") if o.name not in params})


def from_params(stored: dict):
    """(params, boards) of a stored ``params.json`` (any format), as :func:`_resolve`
    returns them for the arguments that wrote it. Reading a folder needs no agent's code:
    users' agents are taken as ``params.json``'s ``own_agents`` describes them, and
    nothing the folder names is imported."""
    p = with_defaults(stored)
    own = _stored_own(p)
    for a in p["agents"] if isinstance(p["agents"], list) else []:
        if isinstance(a, str) and a not in AGENTS and a not in own:
            raise ValueError(f"out: params.json names agent {a!r}, neither built in nor one "
                             f"of its own_agents (damaged or edited, or a newer fastsweep's "
                             f"agent); move the folder aside")
    members = {}
    for a, mc in p["members"]:
        members.setdefault(a, []).append(mc)
    single = {o.name: tuple(p[o.name]) if isinstance(p[o.name], list) else p[o.name]
              for o in sweep_options("single")}
    return _resolve(p["agents"], [tuple(s) for s in p["sizes"]], p["densities"], p["mines"],
                    p["rules"], members, p["games"], p["ci"], p["min_games"] or 200,
                    p["max_games"] or 100_000, p["seed"], p["chunk_games"],
                    stored_own=own, **single)


def _stored_own(p) -> dict:
    """The ``own_agents`` of a stored ``params.json``, checked for shape: {name: {source,
    digest, ...}} (names and strings only: it is never imported)."""
    own = p.get("own_agents") or {}
    if not isinstance(own, dict) or not all(
            isinstance(a, str) and isinstance(v, dict)
            and all(isinstance(v.get(f, ""), str) for f in ("source", "digest"))
            for a, v in own.items()):
        raise ValueError("out: params.json: own_agents must map your agents' names to their "
                         "source and digest (damaged or edited); move the folder aside")
    return own


# a user's agent reads the game's options only, as basic does: the stand-in that builds
# its boards' configurations when a folder is read (their board fields, not its play)
_STAND_IN = "basic"


def _own_agent(agent) -> dict:
    """What a folder records of a user's agent: its import path (``source``, "" for an
    object), its code's digest and what that covers (``code``) and, when the agent has a
    ``name`` attribute, that name (the figures' and tables' label, read without importing
    the agent's code again)."""
    info = agent_info(agent)
    out = dict(source=info.source, digest=info.digest, code=dict(info.code))
    name = getattr(getattr(info.player, "source_object", None), "name", None)
    if isinstance(name, str) and name.strip():
        out["name"] = name.strip()
    return out


def _resolve(agents, sizes, densities, mines, rules, mine_count, games, ci, min_games,
             max_games, seed, chunk_games, stored_own=None, **single):
    """Validate everything; return (params dict, boards list). Writes nothing.

    ``single``: the single-valued options of the table (first_click, first_cell, prior,
    budget, ...), applied to every configuration; missing ones take their defaults.
    ``stored_own``: reading a folder (:func:`from_params`), its users' agents as its
    ``params.json`` describes them; they are not resolved (nor imported), and its other
    agents must be built in."""
    single = {o.name: single.get(o.name, DEFAULTS[o.name]) for o in sweep_options("single")}
    if agents is None:  # (_as_list passes None on: it means "not given" for mines)
        raise ValueError("agents: expected a list of agents (built-in names, import paths "
                         f"or agent objects; known agents: {', '.join(AGENTS)}), got None")
    agents = _as_list(agents, "agents")
    if stored_own is not None:  # a folder read back: names only
        def known(a):
            return isinstance(a, str) and (a in AGENTS or a in stored_own)
    else:
        known = is_agent
        try:  # users' agents (objects, import paths) by their names
            agents = [resolve_agent(a) for a in agents]
        except (TypeError, ValueError) as e:
            raise ValueError(f"agents: {str(e).removeprefix('agent: ')}") from None
    members = _members(agents, mine_count, known)
    sizes = [parse_size(s) for s in _as_list(sizes, "sizes")]
    if (densities is None) == (mines is None):
        raise ValueError("densities/mines: give exactly one of densities=[...] or mines=[...]")
    if isinstance(densities, str):
        densities = parse_range(densities)
    densities = _as_list(densities, "densities")
    mines = _as_list(mines, "mines")
    if mines is not None:
        mines = [int(m) if isinstance(m, str) and m.isdigit() else m for m in mines]
    rules = _as_list(rules, "rules")
    seed = check_seed(seed)
    if (games is None) == (ci is None):
        raise ValueError("games/ci: give exactly one of games=N (fixed) or ci=HALF_WIDTH "
                         "(adaptive precision of the mean score)")
    if games is not None:
        games = check_games(games)
    else:
        if (not isinstance(ci, numbers.Real) or isinstance(ci, bool) or not math.isfinite(ci)
                or not 1e-6 <= ci <= 1):
            raise ValueError(f"ci: must be a number in [1e-6, 1] (a 95% CI half-width of the "
                             f"mean score, e.g. 0.005; below 1e-6 would need over 10^12 games), "
                             f"got {ci!r}")
        ci = float(ci)
        min_games = check_games(min_games, "min_games")
        max_games = check_games(max_games, "max_games")
        if min_games < 2 or max_games < min_games:
            raise ValueError(f"min_games/max_games: need 2 <= min_games <= max_games, got "
                             f"{min_games} and {max_games}")
    if chunk_games is not None:
        chunk_games = check_games(chunk_games, "chunk_games")
    axes = dict(agents=agents, sizes=sizes, densities=densities, mines=mines, rules=rules)
    for name, vals in axes.items():
        _no_duplicates(vals, name)
    n = len(members) * len(sizes) * len(densities or mines) * len(rules)
    if n > MAX_CONFIGS:
        raise ValueError(f"grid: {n:,} configurations (members x sizes x densities or mines x "
                         f"rules); at most {MAX_CONFIGS:,} per sweep")
    boards = []
    for (h, w), x, r in product(sizes, densities if densities is not None else mines, rules):
        kw = dict(density=x) if densities is not None else dict(mines=x)
        cfgs = [make_config(a, (h, w), False, rules=r, mine_count=mc, **single, **kw)
                if stored_own is None or a in AGENTS else
                replace(make_config(_STAND_IN, (h, w), False, rules=r, mine_count=mc,
                                    **single, **kw), agent=a)
                for a, mc in members]
        c0 = cfgs[0]
        boards.append(dict(
            height=h, width=w, mines=c0.mines, rules=r, first_click=c0.first_click,
            first_cell=c0.first_cell if isinstance(c0.first_cell, str) else list(c0.first_cell),
            density=float(x) if densities is not None else c0.mines / (h * w),
            chunk=chunk_size(h * w, chunk_games), cfgs=cfgs))
    # plain Python numbers so params.json round-trips exactly (numpy scalars do not)
    densities = [float(d) for d in densities] if densities is not None else None
    mines = [int(m) for m in mines] if mines is not None else None
    params = dict(
        format=FORMAT, agents=agents, members=[[a, mc] for a, mc in members],
        sizes=[list(s) for s in sizes], densities=densities, mines=mines, rules=rules,
        **{k: _plain(v) for k, v in single.items()},
        seed=seed, games=games, ci=ci, min_games=min_games if ci else None,
        max_games=max_games if ci else None, chunk_games=chunk_games,
        ci_method=CI_METHOD)
    own = {a: (dict(stored_own[a]) if stored_own is not None else _own_agent(a))
           for a in agents if a not in AGENTS}
    # users' agents: where each comes from, its code's digest (grow.py checks it), what
    # that digest covers (user.code_id: the agent's module and the user modules it
    # imports) and its name attribute, if any (the label of figures and tables)
    if own:
        params["own_agents"] = own
    return params, boards
