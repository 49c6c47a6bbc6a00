"""The README's pictures of play (results/pictures/): one board of an example game with
the probability shading (frame.png) and the whole game as a GIF (game.gif), made with the
same calls as the README's "Pictures of play".

Usage: python3 scripts/pictures.py [--out results/pictures]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _bootstrap import ROOT, ensure_venv  # noqa: E402

# the example game: small enough for a GIF under 1 MB, with deductions, flags, guesses
# by probability and a detonation (keep-going rules)
GAME = dict(agent="probability", size=8, mines=12, seed=8, mine_count=True)
FRAME = 21  # the board after this many moves (a guess that detonated) goes into the README


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(ROOT, "results", "pictures"))
    a = p.parse_args(argv)
    import matplotlib.pyplot as plt

    import fastsweep

    os.makedirs(a.out, exist_ok=True)
    g = dict(GAME)
    t = fastsweep.play(g.pop("agent"), g.pop("size"), **g)
    print(t.summary())
    fig = t.plot(FRAME, probabilities=True)
    png = os.path.join(a.out, "frame.png")
    fig.savefig(png, dpi=200)
    plt.close(fig)
    gif = os.path.join(a.out, "game.gif")
    ks = t.animate(gif=gif, probabilities=True)
    print(f"wrote {png} and {gif} ({len(ks)} frames, {os.path.getsize(gif) / 1e3:.0f} kB)")


if __name__ == "__main__":
    ensure_venv(os.path.abspath(__file__))
    main()
