"""A standard benchmark for Minesweeper agents: named, versioned suites (``suites.py``)
played by the sweep driver, and a card per agent (``card.py``).

:func:`benchmark` plays a suite's boards with the agent and the suite's reference agents
on the same games (the sweep's common random numbers), so every difference on the card
is paired. The games, hence every number but the times, depend only on the suite (and
an explicit ``games`` override, which the card marks as not comparable).
"""
from __future__ import annotations

import contextlib
import numbers
import os
import tempfile

from ..studies.script_args import provenance as _provenance
from ..user.resolve import resolve_agent
from .card import make_card, write_card
from .references import resolve_references, seed_boards
from .suites import SUITES, get_suite, label, suite_hash  # noqa: F401 (re-exported)


def _pair(pairs, agent, ref):
    """The pairs row of (agent, ref) as ref - agent (a dict)."""
    for _, p in pairs.iterrows():
        if p["agent_a"] == agent and p["agent_b"] == ref:
            return p.to_dict()
        if p["agent_a"] == ref and p["agent_b"] == agent:
            q = p.to_dict()
            for d, lo, hi in (("mean_diff", "ci_low", "ci_high"),
                              ("win_diff", "win_diff_low", "win_diff_high")):
                q[d], q[lo], q[hi] = -p[d], -p[hi], -p[lo]
            return q
    return None


def benchmark(agent, suite="classic", games=None, workers=None, out=None, quiet=True,
              backend="process", scheduler=None, boards=None, references="auto"):
    """Play ``suite`` (a name, ``"classic@1"`` for a version) with ``agent`` (a built-in
    name, an import path or an agent object) and its reference agents; returns the card
    (a dict; :func:`fastsweep.benchmark.card.card_markdown` renders it). With ``out``,
    the boards' sweep folders go under ``out/boards/`` (resumable: re-running adds what
    is missing) and the card to ``out/card.json`` and ``out/card.md``.

    ``games`` overrides the suite's games a board (a quick look: the card says it is
    not comparable with the suite's cards). ``boards``: the folder of the boards' sweeps
    instead of ``out/boards`` (cards of several agents can share it: the references'
    games are played once). ``references``: where the references' games come from:
    ``"auto"`` (the default) the repository's committed records of the suite
    (``results/benchmark/<suite>-v<N>/boards``, copied, so only ``agent`` is played),
    ``None`` to play them in this run, or a boards folder of another run.

    Example
    -------
    >>> from fastsweep.benchmark import benchmark
    >>> c = benchmark("basic", "classic", games=200, workers=1)
    >>> c["label"].startswith("classic@1 #"), [b["board"] for b in c["boards"]]
    (True, ['beginner', 'intermediate', 'expert'])
    """
    s = get_suite(suite) if isinstance(suite, str) else suite
    name = resolve_agent(agent)
    if games is not None and (isinstance(games, bool) or not isinstance(games, numbers.Integral)
                              or games < 2):
        raise ValueError(f"games: a whole number of games a board, at least 2 (or None: "
                         f"the suite's own), got {games!r}")
    n = s["games"] if games is None else int(games)
    # (the references first, in the suite's order, then the agent: every card of a suite
    # plays the same sweep, so cards can share its folder and its references' games)
    members = list(s["references"]) + ([name] if name not in s["references"] else [])
    source = resolve_references(references, s)
    where = boards if boards is not None else (
        None if out is None else os.path.join(os.fspath(out), "boards"))
    with tempfile.TemporaryDirectory(prefix="fastsweep-benchmark-") as tmp, \
            _one_cluster(backend, scheduler, workers, len(s["boards"])) as scheduler:
        if where is None and source is not None:
            where = tmp  # the references' records need a folder to be read into
        rows, seeded = _play(s, name, members, n, where, source, workers, quiet, backend,
                             scheduler)
    prov = dict(_provenance(), seed=s["seed"], workers=workers, backend=backend,
                codegen=_codegen())
    reused = (f"taken from the records in {', '.join(sorted(seeded))} (not replayed "
              "here)" if seeded else None)
    card = make_card(s, name, label(s), rows, prov, n, games is not None, reused)
    if out is not None:
        os.makedirs(os.fspath(out), exist_ok=True)
        write_card(card, os.path.join(os.fspath(out), "card"))
    return card


@contextlib.contextmanager
def _one_cluster(backend, scheduler, workers, boards):
    """The scheduler the boards' sweeps share: without one given, a Dask card starts one
    loopback cluster for all its boards (each board is a sweep of its own, and each would
    otherwise start and stop a cluster: 16 for the assignment suite)."""
    if backend != "dask" or scheduler is not None or boards < 2:
        yield scheduler
        return
    try:
        from ..sweep.run.dask_local import LocalSubprocessCluster
    except ImportError:  # (the sweep says how to install Dask)
        yield scheduler
        return
    cluster = LocalSubprocessCluster(workers or os.cpu_count() or 1)
    try:
        yield cluster.cluster.scheduler_address
    finally:
        cluster.close()


def _codegen() -> str:
    """The CPU the kernels were compiled for (NUMBA_CPU_NAME, or the host's): a card made
    with other machine code must still have the same results digest."""
    from numba.core import config
    if config.CPU_NAME:
        return str(config.CPU_NAME)
    import llvmlite.binding as llvm
    return f"host ({llvm.get_host_cpu_name()})"


def _play(s, name, members, n, where, source, workers, quiet, backend, scheduler):
    """Each board's sweep; returns (rows for make_card, the folders whose references'
    records were reused)."""
    from ..sweep import sweep

    rows, seeded = {}, set()
    for b in s["boards"]:
        kw = dict(mines=[b["mines"]]) if b.get("mines") is not None else dict(
            densities=[b["density"]])
        folder = None if where is None else os.path.join(os.fspath(where), b["key"])
        came = seed_boards(source, b["key"], folder)
        if came:
            seeded.add(came)
        first_cell = tuple(b["first_cell"]) if isinstance(b["first_cell"], list) else \
            b["first_cell"]
        r = sweep(members, (b["height"], b["width"]), rules=b["rules"],
                  mine_count=[b["mine_count"]], games=n, seed=s["seed"], workers=workers,
                  out=folder, quiet=quiet, first_click=b["first_click"],
                  first_cell=first_cell, backend=backend, scheduler=scheduler, **kw)
        row = r.summary[r.summary.agent == name].iloc[0].to_dict()
        pairs = {ref: _pair(r.pairs, name, ref) for ref in members if ref != name}
        rows[b["key"]] = (row, {k: v for k, v in pairs.items() if v is not None})
    return rows, seeded
