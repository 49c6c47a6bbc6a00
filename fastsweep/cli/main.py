"""Command line: ``fastsweep run | play | bench | sweep | plot | table | hardboard |
check-agent | profile | benchmark | advise``
(argparse).

Every subcommand validates through the same wrappers as the Python API, and every error is
one line on stderr, ``fastsweep <command>: error: ...``, with exit status 2: argparse's own
usage errors too (:class:`Parser`; argparse would print the whole usage block first), and
the wrappers' ValueErrors re-worded with the command's flag names (:func:`cli_wording`:
``mines=M`` becomes ``--mines M``). Game options get their flags from the option table
(:func:`fastsweep.options.add_flags`), so every option of ``run`` is on ``play`` too.
"""
from __future__ import annotations

import os
import re
import sys
import traceback
import warnings

from ..agents import AGENTS, counted
from ..user.numba_player import PolicyTypeError
from ..user.python_player import AgentError
from .common import (  # noqa: F401
    Parser, _add_game_args, _at_least, _options, cli_wording, forget_given, refuse_repeats,
)


def cmd_run(a):
    import time

    from ..options import make_config
    from ..output import check_table_path, game_rows, write_table
    from ..runner import run
    from ..stats import OFF_PILE, sample_ci, win_ci

    cfg = make_config(a.agent, a.size, **_options(a))  # bad input fails before compiling
    if a.out:
        check_table_path(a.out)
    t0 = time.perf_counter()
    run(a.agent, a.size, games=1, seed=a.seed, **_options(a))  # compile or load the JIT
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    df = run(a.agent, a.size, games=a.games, seed=a.seed, **_options(a))
    wall = time.perf_counter() - t0
    n = len(df)
    m, lo, hi = sample_ci(df.score.to_numpy(), 0, 1)
    off = n - int(df.score.value_counts().max()) if n else 0
    how = ("Gaffke's bound within the scores seen" if off >= OFF_PILE
           else "Gaffke's bound within [0, 1]")
    wins = int(df.won.sum())
    _, wl, wh = win_ci(wins, n)
    print(f"agent {a.agent}, board {cfg.height}x{cfg.width}, {cfg.mines} mines, rules "
          f"{cfg.rules}, mine count {'known' if a.mine_count else 'unknown'}, seed {a.seed}"
          + (f", noise {cfg.noise} ({'noise-aware' if cfg.noise_aware else 'trusting the clues'})"
             if cfg.noise != "none" else ""))
    print(f"games            {n}")
    print(f"mean score       {m:.4f}  (95% CI {lo:.4f} .. {hi:.4f}, {how})")
    print(f"win rate         {wins / n:.4f}  (95% Clopper-Pearson CI {wl:.4f} .. {wh:.4f})")
    print(f"guesses per game {df.guesses.mean():.2f}")
    print(f"detonations/game {df.detonated.mean():.2f}")
    if cfg.noise != "none":
        print(f"wrong flags/game {df.wrong_flags.mean():.2f}  (flags on safe cells; the score "
              "counts correct flags only)")
        print(f"safe detonations {df.safe_detonations.mean():.2f}  per game (cells deduced "
              "safe that were mines)")
        print(f"clues dropped    {df.clues_dropped.mean():.2f}  per game (contradicted)")
    if df.approx_steps.sum():
        print(f"approx steps     {int(df.approx_steps.sum())} (analyses beyond the exact budget)")
    print(f"games per second {n / wall:,.0f}  ({wall:.2f} s wall, "
          f"{df.seconds.mean() * 1e6:.1f} us per game in the kernel; "
          f"{warm:.1f} s to compile or load the kernels first)")
    if a.out:
        write_table(game_rows(df, cfg), a.out)
        print(f"wrote {n} games to {a.out}")


def cmd_play(a):
    from ..trace import play

    pics = dict(every_frame=1 if a.every_frame is None else a.every_frame,
                probabilities=a.probabilities, fps=4.0 if a.fps is None else a.fps)
    if a.gif is not None or a.mp4 is not None:  # checked before the game is played
        from ..options import make_config
        from ..viz.pictures import check_animation

        check_animation(a.gif, a.mp4, noise=make_config(a.agent, a.size, **_options(a)).noise,
                        **pics)
    elif a.every_frame is not None or a.probabilities or a.fps is not None:
        given = [n for n in ("every_frame", "probabilities", "fps")
                 if getattr(a, n) not in (None, False)]
        raise ValueError(f"{given[0]}: only with --gif FILE or --mp4 FILE (it sets how the "
                         "animation is drawn)")
    t = play(a.agent, a.size, seed=a.seed, game=a.game, **_options(a))
    print(t.summary() if a.quiet else t.text(every=a.every))
    if a.gif is not None or a.mp4 is not None:
        ks = t.animate(gif=a.gif, mp4=a.mp4, **pics)
        print(f"wrote {counted(len(ks), 'frame')} (after moves {ks[0]}..{ks[-1]}) to "
              + " and ".join(f for f in (a.gif, a.mp4) if f is not None))


def cmd_bench(a):
    from ..tools.bench import main as bench_main

    bench_main(repeats=a.repeats, out=a.out, quick=a.quick,
               agents=[x for x in a.agent.split(",") if x], compile_times=not a.no_compile)


def build_parser():
    p = Parser(
        prog="fastsweep",
        description="High-throughput Minesweeper agent simulator. "
                    "Agents: " + "; ".join(f"{k}: {v.description}" for k, v in AGENTS.items()))
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("run", help="play many games of one configuration and summarise them")
    _add_game_args(r)
    r.add_argument("--games", type=_at_least(1), default=1000, help="games to play (default 1000)")
    r.add_argument("--out", metavar="FILE", default=None,
                   help="also save one row per game: game, seed, outcome and configuration "
                        "(.csv, or .parquet with pyarrow installed)")
    r.set_defaults(func=cmd_run)

    q = sub.add_parser("play", help="one game with a play-by-play trace")
    _add_game_args(q)
    q.add_argument("--game", type=_at_least(0), default=0,
                   help="game index under the seed (default 0)")
    show = q.add_mutually_exclusive_group()
    show.add_argument("--every", type=_at_least(1), default=0, metavar="N",
                      help="also print the board every N moves (default: only at the end)")
    show.add_argument("--quiet", action="store_true",
                      help="print only the summary line (no moves, no board)")
    pic = q.add_argument_group("pictures of play (fastsweep.viz.pictures)")
    pic.add_argument("--gif", metavar="FILE", help="also write the game as an animated GIF: "
                     "a frame per move (see --every-frame), the last one held 2 s")
    pic.add_argument("--mp4", metavar="FILE", help="the same as an MP4 video (needs ffmpeg)")
    pic.add_argument("--every-frame", type=_at_least(1), metavar="N",
                     help="a frame every N moves and after the last one (default 1; "
                          "--every N sets the printed boards, not the frames)")
    pic.add_argument("--probabilities", action="store_true",
                     help="shade each hidden cell by its exact mine probability from the "
                          "agent's view at that frame")
    pic.add_argument("--fps", type=float, metavar="F", help="frames per second (default 4)")
    q.set_defaults(func=cmd_play)

    b = sub.add_parser("bench", help="games per second of the basic agent, compile times")
    b.add_argument("--repeats", type=_at_least(1), default=5,
                   help="timed runs per board (median; default 5)")
    b.add_argument("--out", metavar="FILE", default=None,
                   help="also save the table (.csv or .parquet; default: print only)")
    b.add_argument("--quick", action="store_true", help="fewer games (a smoke test)")
    b.add_argument("--agent", default="", metavar="AGENTS",
                   help="also time these agents on the same boards (comma-separated: "
                        "built-in names or your own by import path, module:attr or "
                        "path/to/file.py:attr)")
    b.add_argument("--no-compile", action="store_true",
                   help="leave out the cold and warm compile timings (minutes)")
    b.set_defaults(func=cmd_bench)

    try:
        from .sweep import add_parsers
    except ImportError:  # the sweep driver is optional until it exists
        pass
    else:
        add_parsers(sub)
    from .advise import add_parsers as add_advise
    from .check import add_parsers as add_check
    from .hard import add_parsers as add_hard
    from .profile import add_parsers as add_profile
    from .benchmark import add_parsers as add_benchmark

    add_advise(sub)  # fastsweep advise: the advisor (position or interactive game)
    add_hard(sub)  # fastsweep hardboard: layouts an agent scores low on
    add_check(sub)  # fastsweep check-agent: the agent contract on a user's agent
    add_profile(sub)  # fastsweep profile: time and work as the board grows
    add_benchmark(sub)  # fastsweep benchmark: an agent's card on a standard suite
    refuse_repeats(p)
    return p


def _one_line_warnings():
    """``warnings.formatwarning`` for the command line: a warning as one line, ``fastsweep:
    warning: ...`` (Python's format adds the file and source line that warned, which mean
    nothing to a user of the command), each text once (advise's deduction and its
    probabilities would say the same twice). (The format, not ``showwarning``: warnings
    recorded by a caller, as pytest.warns does, stay recorded.)"""
    seen = set()

    def format(message, category, filename, lineno, line=None):
        text = " ".join(str(message).split())
        if text in seen:
            return ""
        seen.add(text)
        return f"fastsweep: warning: {text}\n"
    return format


def main(argv=None):
    parser = build_parser()
    a, extra = parser.parse_known_args(argv)
    forget_given(a)
    cmd = parser._subparsers._group_actions[0].choices[a.command]
    if extra:  # argparse would blame the top-level parser and hint at its --help
        cmd.error(f"unrecognized arguments: {' '.join(extra)}")
    own = warnings.formatwarning
    warnings.formatwarning = _one_line_warnings()
    try:
        return _run(cmd, a)
    finally:  # a program that called main() keeps its own format
        warnings.formatwarning = own


_ARG_ERROR = re.compile(r"[A-Za-z_][\w/.-]*: ")  # "agent: ...", "mines/density: ..."


def _run(cmd, a):
    try:
        a.func(a)
    except PolicyTypeError as e:  # one line on what is wrong, Numba's message below it
        print(f"{cmd.prog}: error: {e}\nNumba's message:\n{e.__cause__}", file=sys.stderr)
        cmd.exit(1, f"{cmd.prog}: error: {e}\n")
    except AgentError as e:  # a user's agent failed: its own traceback, then one line
        traceback.print_exception(e.__cause__ or e)
        cmd.exit(1, f"{cmd.prog}: error: {e}\n")
    except BrokenPipeError:  # e.g. `fastsweep play ... | head`: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except ValueError as e:
        cmd.exit(2, f"{cmd.prog}: error: {cli_wording(e, cmd)}\n")
    except TypeError as e:
        # an argument of the wrong kind, named by fastsweep's checks ("agent: expected
        # ..."): one line; any other TypeError is a defect and keeps its traceback
        if not _ARG_ERROR.match(str(e)):
            raise
        cmd.exit(2, f"{cmd.prog}: error: {cli_wording(e, cmd)}\n")
    except OSError as e:  # a folder that cannot be written, a full disk: one line too
        cmd.exit(2, f"{cmd.prog}: error: {e}\n")
    except KeyboardInterrupt:
        cmd.exit(130, f"{cmd.prog}: interrupted\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
