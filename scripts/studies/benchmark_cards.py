"""The benchmark's reference cards: each suite's reference agents (``classic``:
`probability`, `pseq`, `lookahead`; ``assignment``: `basic`, `inference`, `probability`)
on one shared sweep of the suite's boards (``fastsweep benchmark``), so the references'
games are played once, and the compare figure of each suite's cards. Writes
``OUT/<suite>-v<N>/<agent>/card.json`` and ``card.md``, the boards' records under
``OUT/<suite>-v<N>/boards/`` (the records users' cards reuse) and
``OUT/<suite>-v<N>/compare.{md,png,pdf}``; re-running resumes. The committed
results/benchmark/ is made by scripts/reproduce.py (step ``benchmark``).

Usage: python3 scripts/studies/benchmark_cards.py [--quick] [--workers N] [--out DIR]
                [--suites classic,assignment]
  --quick   seconds: 60 games a board (the cards say they are not comparable)
"""
import os

from fastsweep.studies.script_args import parse, parser, write_run

SUITES = ("classic", "assignment")


def main(argv=None):
    ap = parser("benchmark_cards", __doc__, quick="seconds: 60 games a board")
    ap.add_argument("--suites", default=",".join(SUITES),
                    help="comma-separated suites (default: %(default)s)")
    a = parse(ap, argv)
    from fastsweep.benchmark import benchmark, get_suite
    from fastsweep.benchmark.card import card_markdown, compare
    from fastsweep.viz.benchmark_figures import plot_compare

    made = {}
    for name in a.suites.split(","):
        s = get_suite(name)
        out = os.path.join(a.out, f"{s['name']}-v{s['version']}")
        cards = []
        for agent in s["references"]:
            # (references=None: these cards make the records that users' cards reuse)
            card = benchmark(agent, name, games=60 if a.quick else None,
                             workers=a.workers, out=os.path.join(out, agent),
                             boards=os.path.join(out, "boards"), references=None)
            print(card_markdown(card))
            cards.append(card)
        with open(os.path.join(out, "compare.md"), "w") as f:
            f.write(compare(cards))
        plot_compare(cards, os.path.join(out, "compare"))
        made[name] = list(s["references"])
    print("wrote", write_run(a, suites=made))


if __name__ == "__main__":
    main()
