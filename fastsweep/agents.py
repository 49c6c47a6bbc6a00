"""The agent registry: each agent's name, family and variant, description and options, and
the move reasons with their trace texts.

A new agent is one policy (a branch of its family's move, e.g. ``kernels/policies.py``)
plus one ``AGENTS`` entry; a new family is one module under ``kernels/agents/`` that
declares its ``FAMILY`` (its move and guess, the contract in ``kernels/agents/family.py``)
and the entry points ``play_batch``, ``play_traced`` and ``play_blind``, added to
``FAMILIES``. A family compiles only its own move and guess (the game loop is compiled
once for all), so the basic agent never pays for the exact inference engine.
"""
from __future__ import annotations

from dataclasses import dataclass

from .kernels.engine import layout as kl
from .kernels.agents.policies import (
    GUESS_IN_ORDER, GUESS_LOWEST, GUESS_RISK, GUESS_THRESHOLD,
)
from .kernels.agents import run_basic, run_exact, run_risk
from .kernels.agents.solver import run_solver
from .kernels.agents.solver.run_solver import GUESS_LOOKAHEAD, GUESS_PSEQ
from .kernels.agents.reports import run_reports
from .kernels.agents.reports.run_reports import (
    REDUCE_BRUTEFORCE, REDUCE_LINALG, REDUCE_LINALG_BRUTEFORCE, REDUCE_LINALG_PLUS,
    REDUCE_SUBSET,
)


# each family's kernel module: its ``FAMILY`` (``family.Family``: the move and guess that
# play its agents) and entry points ``play_batch``, ``play_traced``, ``play_blind``.
# Imported, not named: an editor follows run("probability") -> AGENTS -> FAMILIES ->
# run_exact.FAMILY -> policies.next_move (importing them compiles nothing: 2 ms)
FAMILIES = {
    "basic": run_basic,
    "exact": run_exact,
    "risk": run_risk,
    "reports": run_reports,
    "solver": run_solver,
}


@dataclass(frozen=True)
class AgentInfo:
    """One registered agent.

    ``variant``: which of its family's variants it plays (``params[P_VARIANT]``: a guess
    rule or a reduction that the family's module names, e.g. ``policies.GUESS_LOWEST``; 0
    for a family of one agent); ``family``: the kernel module ``FAMILIES[family]`` that
    plays it. An agent is this entry: the kernels know rules, not agents; ``options``: the game options it
    reads beyond the board and rules (for documentation and the contract tests);
    ``reasons``: the move reasons (``layout.R_*``) its moves can carry.
    """

    variant: int
    family: str
    description: str
    options: tuple = ()
    reasons: tuple = ()
    exact_inference: bool = False  # deduction is complete: it guesses only when nothing is certain
    slow: bool = False  # ~0.1-1 s a game on mid-size boards (the contract plays fewer there)
    noise_aware: bool = False  # can reason on the exact posterior under a noisy sensor
    player: object = None  # a user's agent: what plays it (``fastsweep.user``), else None
    source: str = ""  # a user's agent: its import path ("module:attr" / "file.py:attr") or ""
    digest: str = ""  # a user's agent: a digest of its code (sweep folders check it)
    code: tuple = ()  # a user's agent: (what was digested, its digest) pairs (user.code_id)


_RULE_REASONS = (kl.R_FIRST, kl.R_CLUE_MINES, kl.R_CLUE_SAFE, kl.R_COUNT_SAFE,
                 kl.R_COUNT_MINES)

AGENTS: dict[str, AgentInfo] = {
    "basic": AgentInfo(
        0, "basic", "the assignment's basic agent: single-clue rules, else a random guess",
        options=("mine_count",), reasons=_RULE_REASONS + (kl.R_RANDOM,)),
    "inference": AgentInfo(
        GUESS_IN_ORDER, "exact", "complete deduction from all clues (and the mine total), else a random "
        "guess", options=("mine_count", "budget", "noise_aware"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM),
        exact_inference=True, noise_aware=True),
    "probability": AgentInfo(
        GUESS_LOWEST, "exact", "complete deduction, else the hidden cell of lowest exact mine "
        "probability", options=("mine_count", "budget", "prior", "noise_aware",
                                "flag_threshold"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM,
                                 kl.R_PROB_GUESS, kl.R_APPROX_GUESS, kl.R_FLAG_LIKELY),
        exact_inference=True, noise_aware=True),
    "linalg": AgentInfo(
        REDUCE_LINALG, "reports", "the reports' linear-algebra agent: reduced row echelon form "
        "of the clues' equations (and the total's), single-cell rows decide, else a random "
        "guess", options=("mine_count",),
        reasons=_RULE_REASONS + (kl.R_LINALG_SAFE, kl.R_LINALG_MINE, kl.R_RANDOM)),
    "linalg-plus": AgentInfo(
        REDUCE_LINALG_PLUS, "reports", "linalg, and a row also decides when its right-hand "
        "side is the sum of its positive (or negative) coefficients, else a random guess",
        options=("mine_count",),
        reasons=_RULE_REASONS + (kl.R_LINALG_SAFE, kl.R_LINALG_MINE, kl.R_RANDOM)),
    "bruteforce": AgentInfo(
        REDUCE_BRUTEFORCE, "reports", "the reports' brute-force agent (Rele, Raman, Eng and "
        "Patel, Rutgers 2019): every consistent mine layout of each frontier component of at "
        "most max_component cells; cells safe or mined in all of them are decided, else the "
        "cell in the fewest layouts (unweighted share; with the mine total, an off-frontier "
        "cell when its estimate is lower), a random guess when nothing was enumerated",
        options=("mine_count", "max_component"),
        reasons=_RULE_REASONS + (kl.R_BRUTE_SAFE, kl.R_BRUTE_MINE, kl.R_BRUTE_GUESS,
                                 kl.R_RANDOM)),
    "linalg-bruteforce": AgentInfo(
        REDUCE_LINALG_BRUTEFORCE, "reports", "the 2019 report's combination: linalg's "
        "reduced row echelon form first, and the bruteforce step (enumeration, then its "
        "guess) when the reduction decides nothing", options=("mine_count", "max_component"),
        reasons=_RULE_REASONS + (kl.R_LINALG_SAFE, kl.R_LINALG_MINE, kl.R_BRUTE_SAFE,
                                 kl.R_BRUTE_MINE, kl.R_BRUTE_GUESS, kl.R_RANDOM)),
    "subset": AgentInfo(
        REDUCE_SUBSET, "reports", "the 2020 report's subset agent (Patel, Prabhala, Shah, "
        "Goradia): the clues' equations, rebuilt each move, reduced by their subsets and "
        "split by their supersets; an equation of value 0 or of value its size decides, "
        "else a random guess", options=("mine_count",),
        reasons=_RULE_REASONS + (kl.R_RANDOM, kl.R_SUBSET_SAFE, kl.R_SUBSET_MINE)),
    "threshold": AgentInfo(
        GUESS_THRESHOLD, "risk", "the 2020 report's threshold agent: complete deduction, "
        "else every cell whose exact mine probability is below the threshold, revealed at "
        "once without recomputing (none: the lowest)",
        options=("mine_count", "budget", "prior", "threshold"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM,
                                 kl.R_THRESHOLD_GUESS, kl.R_APPROX_GUESS)),
    "risk": AgentInfo(
        GUESS_RISK, "risk", "the CS440 follow-up's risk agent: complete deduction, else the "
        "cell that maximises the expected number of cells decided after it (exact outcome "
        "distribution)", options=("mine_count", "budget", "prior", "risk_rules"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM,
                                 kl.R_RISK_GUESS, kl.R_APPROX_GUESS),
        exact_inference=True, slow=True),
    "pseq": AgentInfo(
        GUESS_PSEQ, "solver", "Tu et al.'s PSEQ: complete deduction, else among the cells of "
        "lowest exact mine probability (P) those most likely to free a cell (S), then most "
        "cells freed on average (E), then most uncertain value (Q), then the guess order",
        options=("mine_count", "budget", "prior"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM,
                                 kl.R_PSEQ_GUESS, kl.R_APPROX_GUESS),
        exact_inference=True),
    "lookahead": AgentInfo(
        GUESS_LOOKAHEAD, "solver", "the strongest: complete deduction; exact endgame search "
        "when few layouts remain; unavoidable 50/50s guessed early; else the living cell of "
        "best two-move look-ahead among those nearly as safe as the safest",
        options=("mine_count", "budget", "prior", "endgame", "endgame_nodes", "candidate_cut",
                 "pseudo_fifty", "corner_opening", "offedge_limit", "fifty_blocks",
                 "far_ties"),
        reasons=_RULE_REASONS + (kl.R_DEDUCE_SAFE, kl.R_DEDUCE_MINE, kl.R_RANDOM,
                                 kl.R_LOOKAHEAD_GUESS, kl.R_ENDGAME_GUESS, kl.R_FIFTY_GUESS,
                                 kl.R_PSEUDO_GUESS, kl.R_CORNER_GUESS, kl.R_APPROX_GUESS),
        exact_inference=True),
}


def _rc(cell: int, width: int) -> str:
    r, c = divmod(int(cell), width)
    return f"({r},{c})"


def counted(count, noun, plural=None) -> str:
    """``count`` and ``noun`` in agreement: "1 hidden cell", "2 hidden cells".

    >>> counted(1, "cell"), counted(3, "cell touches", "cells touch")
    ('1 cell', '3 cells touch')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def _deduced(what):
    def text(ref, a, p, w):
        if ref < 0:  # an unconstrained cell: the mine total decides it
            return (f"{what} by deduction from the clues and the mine total "
                    f"({counted(a, 'cell touches', 'cells touch')} no clue)")
        return f"{what} by deduction from {counted(a, 'clue')}, e.g. at {_rc(ref, w)}"
    return text


def _brute_guess(ref, a, p, w):
    if ref == -2:  # an off-frontier cell: p is the estimate t
        return (f"off-frontier cell: estimate {p:.3f} (mines left beyond the components' "
                f"fewest, per cell no clue touches; no frontier share is lower; {counted(a, 'hidden cell')})")
    return (f"share of enumerated layouts {p:.3f} (lowest of the frontier, below the "
            f"off-frontier estimate if told the total; {counted(a, 'hidden cell')})")


_PSEQ_STAGES = ("P: lowest mine probability", "S: most likely to free a cell",
                "E: most cells freed on average", "Q: most uncertain value",
                "the guess order (tied on P, S, E, Q)")


def _pseq_text(ref, a, p, w):
    stage, value = a % 8, (a // 8) / 1000
    tail = "" if stage in (0, 4) else f" = {value:.3f}"
    return f"PSEQ: mine probability {p:.3f}; decided by {_PSEQ_STAGES[stage]}{tail}"


def _lookahead_text(ref, a, p, w):
    if a < 0:
        return (f"the only cell within candidate_cut of the safest (mine probability "
                f"{p:.3f}): played without a look-ahead")
    unit = 10000
    best, rest = divmod(a, 4 * unit)
    bound, runner = divmod(rest, 2 * unit)
    text = f"look-ahead score {best / unit:.4f} (mine probability {p:.3f})"
    if ref < 0:
        return text + "; no other candidate"
    if bound:
        return text + f"; runner-up {_rc(ref, w)} could score at most {runner / unit:.4f}"
    return text + f"; runner-up {_rc(ref, w)} scored {runner / unit:.4f}"


# reason -> (name, text(ref, a, probability, board width)); what ref and a mean is per
# reason (see layout.R_*)
REASONS = {
    kl.R_FIRST: ("first", lambda ref, a, p, w: f"opening move, {counted(a, 'hidden cell')}"),
    kl.R_RANDOM: ("random", lambda ref, a, p, w: f"random guess, {counted(a, 'hidden cell')}"),
    kl.R_CLUE_MINES: ("clue-mines", lambda ref, a, p, w:
                      f"clue at {_rc(ref, w)} has {counted(a, 'hidden neighbour')} left, "
                      "all mines"),
    kl.R_CLUE_SAFE: ("clue-safe", lambda ref, a, p, w:
                     f"clue at {_rc(ref, w)} has all its mines found: "
                     f"{counted(a, 'hidden neighbour')} safe"),
    kl.R_COUNT_SAFE: ("count-safe", lambda ref, a, p, w:
                      f"all mines found: the {counted(a, 'hidden cell')} left "
                      f"{'is' if a == 1 else 'are'} safe"),
    kl.R_COUNT_MINES: ("count-mines", lambda ref, a, p, w:
                       f"{counted(a, 'hidden cell')} left and {counted(a, 'mine')} left: "
                       "all mines"),
    kl.R_DEDUCE_SAFE: ("deduce-safe", _deduced("safe")),
    kl.R_DEDUCE_MINE: ("deduce-mine", _deduced("mine")),
    kl.R_LINALG_SAFE: ("linalg-safe", lambda ref, a, p, w:
                       f"safe by the reduced row echelon form ({counted(a, 'cell')} decided)"),
    kl.R_LINALG_MINE: ("linalg-mine", lambda ref, a, p, w:
                       f"mine by the reduced row echelon form ({counted(a, 'cell')} decided)"),
    kl.R_BRUTE_SAFE: ("brute-safe", lambda ref, a, p, w:
                      f"safe in every enumerated layout of its component ({counted(a, 'cell')} "
                      "decided)"),
    kl.R_BRUTE_MINE: ("brute-mine", lambda ref, a, p, w:
                      f"mine in every enumerated layout of its component ({counted(a, 'cell')} "
                      "decided)"),
    kl.R_BRUTE_GUESS: ("brute-probability", _brute_guess),
    kl.R_THRESHOLD_GUESS: ("threshold", lambda ref, a, p, w:
                           f"mine probability {p:.3f}, below the threshold: one of "
                           f"{counted(a, 'cell')} revealed without recomputing" if a > 0 else
                           f"mine probability {p:.3f} (lowest; none below the threshold)"),
    kl.R_RISK_GUESS: ("risk", lambda ref, a, p, w:
                      f"look-ahead: {a / 100:.2f} cells expected to be decided after it "
                      f"(mine probability {p:.3f})"),
    kl.R_SUBSET_SAFE: ("subset-safe", lambda ref, a, p, w:
                       f"safe by a subset-reduced equation of value 0 ({counted(a, 'cell')} decided)"),
    kl.R_SUBSET_MINE: ("subset-mine", lambda ref, a, p, w:
                       f"mine by a subset-reduced equation whose value is its size "
                       f"({counted(a, 'cell')} decided)"),
    kl.R_FLAG_LIKELY: ("flag-likely", lambda ref, a, p, w:
                       f"flagged at mine probability {a / 1000:.3f}, at least flag_threshold"),
    kl.R_PROB_GUESS: ("probability", lambda ref, a, p, w:
                      f"mine probability {p:.3f} (lowest of {counted(a, 'hidden cell')})"),
    kl.R_PSEQ_GUESS: ("pseq", _pseq_text),
    kl.R_LOOKAHEAD_GUESS: ("lookahead", _lookahead_text),
    kl.R_ENDGAME_GUESS: ("endgame", lambda ref, a, p, w:
                         f"endgame search: wins {a // 32768} of {a % 32768} layouts "
                         f"(mine probability {p:.3f})"),
    kl.R_FIFTY_GUESS: ("fifty-fifty", lambda ref, a, p, w:
                       f"unavoidable 50/50 with {_rc(ref, w)}: no reveal can tell them "
                       f"apart, guessed now" if a <= 2 else
                       f"unavoidable 50/50 over {a} cells ({_rc(ref, w)} in the other "
                       f"pattern): no reveal can tell the two mine patterns "
                       f"apart, guessed now"),
    kl.R_PSEUDO_GUESS: ("pseudo-fifty", lambda ref, a, p, w:
                        f"pseudo-50/50: were it a mine, it would form a 50/50 with "
                        f"{_rc(ref, w)} ({'pair' if a == 2 else '2x2 block'}) that no reveal "
                        f"can resolve; guessed now (mine probability {p:.3f})"),
    kl.R_CORNER_GUESS: ("corner-opening", lambda ref, a, p, w:
                        f"corner opening: the opening {_rc(ref, w)} shows a number and "
                        f"nothing is certain; the corner farthest from it, as safe as any "
                        f"cell (mine probability {p:.3f})"),
    kl.R_USER: ("user", lambda ref, a, p, w: ("your agent's guess", "your agent's move: "
                "deduced safe", "your agent's flag")[a] if 0 <= a <= 2 else "your agent's move"),
    kl.R_APPROX_GUESS: ("approx-probability", lambda ref, a, p, w:
                        f"approximate mine probability {p:.3f} (work budget exceeded; "
                        f"{counted(a, 'hidden cell')})"),
}


def reason_text(why: int, ref: int, a: int, p: float, width: int) -> str:
    """Human-readable reason of one move.

    >>> reason_text(kl.R_RANDOM, -1, 12, float("nan"), 9)
    'random guess, 12 hidden cells'
    """
    entry = REASONS.get(int(why))
    return entry[1](ref, a, p, width) if entry else f"reason {why}"


# users' agents registered in this process (``fastsweep.user.resolve``: objects handed to
# run / sweep, and agents named by import path), by name; family "user"
USER_AGENTS: dict[str, AgentInfo] = {}
# loads an agent named by import path ("module:attr") into USER_AGENTS; set by
# fastsweep.user.resolve (so a worker process can play an agent it was only named)
_LOADERS: list = []


def agent_info(name: str) -> AgentInfo:
    """The registry entry of agent ``name``: a built-in agent or a user's registered one
    (an import path not yet loaded in this process is loaded first). KeyError if none."""
    if name in AGENTS:
        return AGENTS[name]
    if name not in USER_AGENTS and isinstance(name, str) and ":" in name and _LOADERS:
        _LOADERS[0](name)
    return USER_AGENTS[name]


def is_agent(name) -> bool:
    """Whether ``name`` names a built-in or registered agent."""
    return isinstance(name, str) and (name in AGENTS or name in USER_AGENTS)


def variant_of(name: str) -> int:
    """The family variant agent ``name`` plays (``params[P_VARIANT]``)."""
    return agent_info(name).variant


def kernels_for(name: str):
    """What plays agent ``name``: its family's kernel module, or a user's agent's player
    (the same entry points)."""
    info = agent_info(name)
    if info.player is not None:
        return info.player
    return FAMILIES[info.family]
