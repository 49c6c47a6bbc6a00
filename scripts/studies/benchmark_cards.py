"""The benchmark's reference cards: `probability`, `pseq` and `lookahead` on the classic
suite (``fastsweep benchmark``), sharing one sweep of the suite's boards, so the
references' games are played once. Writes ``OUT/<agent>/card.json`` and ``card.md`` and
the boards' records under ``OUT/boards/``; re-running resumes. The committed
results/benchmark/classic-v1/ is made by scripts/reproduce.py (step ``benchmark``).

Usage: python3 scripts/studies/benchmark_cards.py [--quick] [--workers N] [--out DIR]
  --quick   seconds: 60 games a board (the cards say they are not comparable)
"""
import os

from fastsweep.studies.script_args import parse, parser, write_run

AGENTS = ("probability", "pseq", "lookahead")


def main(argv=None):
    ap = parser("benchmark_cards", __doc__, quick="seconds: 60 games a board")
    a = parse(ap, argv)
    from fastsweep.benchmark import benchmark
    from fastsweep.benchmark.card import card_markdown

    out = os.path.join(a.out, "classic-v1")
    for agent in AGENTS:
        card = benchmark(agent, "classic", games=60 if a.quick else None, workers=a.workers,
                         out=os.path.join(out, agent), boards=os.path.join(out, "boards"))
        print(card_markdown(card))
    print("wrote", write_run(a, agents=list(AGENTS), suite="classic"))


if __name__ == "__main__":
    main()
