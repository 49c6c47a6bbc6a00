"""``fastsweep benchmark AGENT --suite NAME``: an agent's card on a named, versioned suite
(:func:`fastsweep.benchmark.benchmark`); ``fastsweep benchmark compare CARD ...``: a table
of several cards of one suite version."""
from __future__ import annotations

from .common import _at_least


def cmd_benchmark(a):
    from ..benchmark import benchmark
    from ..benchmark.card import card_markdown, compare, read_card

    if a.agent == "compare":
        if not a.cards:
            raise ValueError("cards: give the cards to compare (their card.json files)")
        cards = [read_card(p) for p in a.cards]
        print(compare(cards), end="")
        if a.figure:
            from ..viz.benchmark_figures import plot_compare
            print("wrote", ", ".join(plot_compare(cards, a.figure)))
        return
    if a.figure:
        raise ValueError("figure: only `fastsweep benchmark compare` draws a figure")
    if a.cards:
        raise ValueError(f"cards: only `fastsweep benchmark compare` takes cards, got "
                         f"{' '.join(a.cards)}")
    if a.out is None:
        raise ValueError("out: give --out DIR (the card and the boards' games go there)")
    card = benchmark(a.agent, a.suite, games=a.games, workers=a.workers, out=a.out,
                     quiet=a.quiet, backend=a.backend, scheduler=a.scheduler,
                     references=None if a.replay_references else a.references)
    print(card_markdown(card), end="")
    print(f"wrote {a.out}/card.json, {a.out}/card.md")


def add_parsers(sub):
    """Add ``benchmark`` to the ``fastsweep`` subcommands."""
    p = sub.add_parser(
        "benchmark", help="an agent's card on a standard suite, or compare cards",
        description="Play a named, versioned suite (classic: the three levels under the "
                    "published conditions; assignment: the reports' keep-going boards) with "
                    "AGENT and the suite's reference agents on the same games, and write its "
                    "card (card.json, card.md): results with 95%% intervals, paired "
                    "differences, time per game, the published figures. `fastsweep "
                    "benchmark compare CARD...` tables several cards of one suite version.")
    p.add_argument("agent", help="a built-in agent, your agent by import path, or 'compare'")
    p.add_argument("cards", nargs="*", help="with compare: the cards' card.json files")
    p.add_argument("--suite", default="classic", help="suite name, or NAME@VERSION")
    p.add_argument("--games", type=_at_least(2), default=None,
                   help="override the suite's games a board (the card says it is then not "
                        "comparable)")
    p.add_argument("--workers", type=_at_least(1), default=None, help="processes")
    p.add_argument("--out", default=None, help="the card's folder")
    p.add_argument("--replay-references", action="store_true",
                   help="play the reference agents' games here instead of reusing the "
                        "repository's committed records of them (the same games)")
    p.add_argument("--references", default="auto", metavar="DIR",
                   help="the boards folder of the references' games to reuse (default: the "
                        "repository's committed results/benchmark/<suite>-v<N>/boards)")
    p.add_argument("--backend", choices=("process", "dask"), default="process",
                   help="where the games run (as for `fastsweep sweep`)")
    p.add_argument("--scheduler", default=None,
                   help="with --backend dask: the scheduler's address (default: a local "
                        "cluster)")
    p.add_argument("--figure", default=None, metavar="BASE",
                   help="with compare: also draw the figure to BASE.png and BASE.pdf")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_benchmark)
