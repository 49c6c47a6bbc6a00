"""The README's pictures of play: one board of an example game with the probability
shading (frame.png) and the whole game as a GIF (game.gif), made with the same calls as
the README's "Pictures of play"; and run.json. The committed results/pictures/ is made by
scripts/reproduce.py (default ``--out``: out/pictures/).

Usage: python3 scripts/studies/pictures.py [--out DIR] [--quick]
  --quick   the frame and a GIF of every 8th move only
"""
import os

from fastsweep.studies.script_args import parse, parser, write_run

# the example game: small enough for a GIF under 1 MB, with deductions, flags, guesses
# by probability and a detonation (keep-going rules)
GAME = dict(agent="probability", size=8, mines=12, seed=8, mine_count=True)
FRAME = 21  # the board after this many moves (a guess that detonated) goes into the README


def main(argv=None):
    ap = parser("pictures", __doc__, workers=False,
                quick="the frame and a GIF of every 8th move only")
    a = parse(ap, argv)
    import matplotlib.pyplot as plt

    import fastsweep

    g = dict(GAME)
    t = fastsweep.play(g.pop("agent"), g.pop("size"), **g)
    print(t.summary())
    fig = t.plot(FRAME, probabilities=True)
    png = os.path.join(a.out, "frame.png")
    fig.savefig(png, dpi=200)
    plt.close(fig)
    gif = os.path.join(a.out, "game.gif")
    ks = t.animate(gif=gif, probabilities=True, every_frame=8 if a.quick else 1)
    print(f"wrote {png} and {gif} ({len(ks)} frames, {os.path.getsize(gif) / 1e3:.0f} kB)")
    print("wrote", write_run(a, game=GAME, frame=FRAME))


if __name__ == "__main__":
    main()
