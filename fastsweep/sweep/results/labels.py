"""What a sweep's agents are called in its figures and tables (:func:`agent_labels`).

A built-in agent is its name. A user's agent is its ``name`` attribute as the folder
recorded it when the sweep played it (``params.json``: ``own_agents[AGENT]["name"]``; the
agent's code is not imported to read it), else its import path shortened to the file (or
module) and attribute: ``mine.py:Mine``, not ``/home/u/project/agents/mine.py:Mine``. Two
agents that would read alike get the shortest longer forms that tell them apart
(``a/mine.py:Mine`` and ``b/mine.py:Mine``; ``careful (mine.py:Careful)``). ``labels``
(``labels=`` in Python, ``--labels`` on the command line: ``AGENT=LABEL,...``) overrides
any of them.
"""
from __future__ import annotations

import re

from ...agents import AGENTS

FORMAT = "AGENT=LABEL pairs separated by commas, e.g. basic=baseline,mine.py:Mine=mine"


def _path_forms(agent: str) -> list[str]:
    """An import path's forms, shortest first and the whole path last: for
    ``"/a/b/mine.py:Mine"`` ``["mine.py:Mine", "b/mine.py:Mine", "a/b/mine.py:Mine",
    "/a/b/mine.py:Mine"]``, for ``"pkg.sub.mine:Mine"`` ``["mine:Mine", "sub.mine:Mine",
    "pkg.sub.mine:Mine"]``."""
    where, _, attr = agent.rpartition(":")
    if where.endswith(".py") or "/" in where or "\\" in where:
        parts = [p for p in re.split(r"[/\\]", where) if p]
        sep = "/"
    else:
        parts, sep = where.split("."), "."
    forms = [sep.join(parts[-k:]) + ":" + attr for k in range(1, len(parts) + 1)]
    if forms[-1] != agent:
        forms.append(agent)
    return list(dict.fromkeys(forms))


def _forms(agent: str, name) -> list[str]:
    """The labels agent ``agent`` may take, shortest first (see the module's doc)."""
    if agent in AGENTS or ":" not in agent:  # a built-in, or an object named at play
        return [agent]
    paths = _path_forms(agent)
    if isinstance(name, str) and name.strip() and name.strip() != agent:
        name = name.strip()
        return [name] + [f"{name} ({p})" for p in paths]
    return paths


def recorded_names(params) -> dict:
    """{agent: its ``name`` attribute} of the users' agents that a folder's parameters
    (``params.json``, or a :class:`SweepResult`'s ``params``) record one for."""
    own = (params or {}).get("own_agents") or {}
    return {a: v["name"] for a, v in own.items()
            if isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"].strip()}


def parse_labels(labels) -> dict:
    """``labels`` as {agent: label}: a dict, or the command line's ``"AGENT=LABEL,..."``;
    ValueError naming the malformed part.

    >>> parse_labels("basic=baseline,examples/basic_python.py:Basic=mine")
    {'basic': 'baseline', 'examples/basic_python.py:Basic': 'mine'}
    >>> parse_labels("basic")
    Traceback (most recent call last):
    ...
    ValueError: labels: expected AGENT=LABEL pairs separated by commas, e.g.
    basic=baseline,mine.py:Mine=mine; got 'basic'
    """
    if labels is None:
        return {}
    if isinstance(labels, str):
        out = {}
        for item in labels.split(","):
            agent, eq, label = item.partition("=")
            agent, label = agent.strip(), label.strip()
            if not eq or not agent or not label:
                raise ValueError(f"labels: expected {FORMAT}; got {item!r}")
            if agent in out:
                raise ValueError(f"labels: agent {agent!r} is given twice")
            out[agent] = label
        return out
    if not isinstance(labels, dict):
        raise ValueError(f"labels: expected {{agent: label}} or {FORMAT}; got "
                         f"{type(labels).__name__} {labels!r:.60}")
    for agent, label in labels.items():
        if not isinstance(agent, str) or not isinstance(label, str) or not label.strip():
            raise ValueError(f"labels: expected {{agent: label}} with text labels; got "
                             f"{agent!r}: {label!r}")
    return {a: v.strip() for a, v in labels.items()}


def agent_labels(agents, names=None, labels=None) -> dict:
    """{agent: label} of ``agents`` (registry names, as a sweep's summary has them):
    ``names`` {agent: recorded name attribute} (see :func:`recorded_names`), ``labels``
    the user's overrides ({agent: label} or ``"AGENT=LABEL,..."``; an agent may be given
    by its default label too). Every label is distinct.

    >>> agent_labels(["basic", "/home/u/a/mine.py:Mine", "/home/u/b/mine.py:Mine",
    ...               "/home/u/c/mine.py:Careful"], {"/home/u/c/mine.py:Careful": "careful"})
    {'basic': 'basic', '/home/u/a/mine.py:Mine': 'a/mine.py:Mine',
     '/home/u/b/mine.py:Mine': 'b/mine.py:Mine', '/home/u/c/mine.py:Careful': 'careful'}
    >>> agent_labels(["basic", "x/mine.py:Mine"], labels="mine.py:Mine=mine")["x/mine.py:Mine"]
    'mine'
    """
    agents = list(dict.fromkeys(agents))
    names = names or {}
    forms = {a: _forms(a, names.get(a)) for a in agents}
    level = dict.fromkeys(agents, 0)
    while True:  # lengthen the labels that read alike until none do
        now = {a: forms[a][level[a]] for a in agents}
        seen = {}
        for a, text in now.items():
            seen.setdefault(text, []).append(a)
        moved = False
        for group in (g for g in seen.values() if len(g) > 1):
            for a in group:
                if level[a] + 1 < len(forms[a]):
                    level[a] += 1
                    moved = True
        if not moved:
            break
    given = parse_labels(labels)
    by_label = {}
    for a, text in now.items():
        by_label.setdefault(text, a)
    done = {}
    for key, label in given.items():
        agent = key if key in now else by_label.get(key)
        if agent is None:
            raise ValueError(f"labels: no agent {key!r} in this sweep; its agents: "
                             f"{', '.join(now.values())}")
        if agent in done:
            raise ValueError(f"labels: agent {agent!r} is given twice ({done[agent]!r} and "
                             f"{key!r})")
        done[agent] = key
    default = dict(now)
    for agent, key in done.items():
        now[agent] = given[key]
    seen = {}
    for a, text in now.items():
        if text in seen:
            raise ValueError(f"labels: {text!r} would name two agents, {default[seen[text]]} "
                             f"and {default[a]}; give each its own label")
        seen[text] = a
    return now
