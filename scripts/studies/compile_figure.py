"""The compile page's picture: which kernel modules a one-line edit to each module that
``scripts/bench/compile.py`` edits re-keys (recompiles on next use), and which families
have a kernel among them (loop, move, guess), computed from the code (``fastsweep.kernels.cache_keys``); writes
``OUT/fig_rekeys.png`` and run.json (default ``--out``: out/compile_figure/; the committed
picture is in results/bench_compile/).

Usage: python3 scripts/studies/compile_figure.py [--out DIR] [--quick]
"""
import os

from fastsweep.studies.script_args import parse, parser, write_run

import readme_compile  # (this folder's: the edits and the families' kernel modules)


def main(argv=None):
    ap = parser("compile_figure", __doc__, workers=False, quick="the same picture")
    a = parse(ap, argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from fastsweep.kernels import cache_keys as ck
    from fastsweep.viz.style import COLOURS

    mods = sorted(ck.closures(), key=lambda m: (m.rsplit("/", 1)[0] if "/" in m else "", m))
    loops = readme_compile._loops()
    names = mods + [f"family: {f}" for f in loops]
    edits = readme_compile.EDITS
    fig, ax = plt.subplots(figsize=(4.6, 0.13 * len(names) + 1.2))
    for j, e in enumerate(edits):
        hit = ck.reverse_closure(e)
        for i, m in enumerate(names):
            if m.startswith("family: "):
                on = bool(hit & set(loops[m[len("family: "):]]))
            else:
                on = m in hit
            if m == e:
                ax.plot(j, i, "s", ms=6, color=COLOURS[1], mec="black", mew=0.8)
            elif on:
                ax.plot(j, i, "s", ms=6, color=COLOURS[1])
            else:
                ax.plot(j, i, "s", ms=6, mfc="none", mec="#bbbbbb", mew=0.6)
    ax.axhline(len(mods) - 0.5, color="black", lw=0.6)
    ax.set_yticks(range(len(names)), names, fontsize=5.5)
    ax.set_xticks(range(len(edits)), [e.replace("/", "/\n", 1) for e in edits], fontsize=6.5)
    ax.xaxis.tick_top()
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlim(-0.6, len(edits) - 0.4)
    ax.set_xlabel("a one-line edit to this module (outlined: the module itself)", fontsize=7)
    ax.set_title("filled: re-keyed (compiled again on next use)\nopen: loaded from the cache",
                 fontsize=7, pad=30)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.tick_params(length=0)
    fig.tight_layout()
    path = os.path.join(a.out, "fig_rekeys.png")
    fig.savefig(path, dpi=200)
    print(f"wrote {path}")
    write_run(a, quick=a.quick)


if __name__ == "__main__":
    main()
