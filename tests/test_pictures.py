"""Pictures of play: the board a figure draws is the trace's board after k moves, the
probability shading is mine_probabilities of the agent's view, an animation has one
frame per move (or per N moves, and the last), and bad arguments are one-line errors."""
import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib import animation
from PIL import Image

import fastsweep
from fastsweep.viz import pictures
from fastsweep import play
from fastsweep.viz.pictures import frame_moves
from cli_helper import run_cli as main

HIDDEN, REVEALED, FLAGGED, DETONATED = 0, 1, 2, 3


def replay(t, k):
    """(status, glyphs, view) after k moves, from the moves table's text columns alone
    (action, row, col, outcome): an oracle independent of Trace.state."""
    h, w = t.config.height, t.config.width
    st = np.zeros((h, w), int)
    glyph = {}
    view = np.full((h, w), -1, np.int8)
    for mv in t.moves.iloc[:k].itertuples():
        rc = (mv.row, mv.col)
        if mv.action == "flag":
            st[rc], glyph[rc], view[rc] = FLAGGED, "F", -2
        elif mv.outcome == "detonated":
            st[rc], glyph[rc], view[rc] = DETONATED, "*", -2
        else:
            clue = int(mv.outcome.split()[1])
            st[rc], view[rc] = REVEALED, clue
            if clue:
                glyph[rc] = str(clue)
    return st, glyph, view


def drawn(fig):
    """(status image, {(row, col): text}, outlined cell or None) of a board figure."""
    ax = fig.axes[0]
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
             for t in ax.texts}
    assert len(texts) == len(ax.texts), "two texts in one cell"
    played = [p for p in ax.patches if p.get_gid() == "played" and p.get_visible()]
    cell = None
    if played:
        x, y = played[0].get_xy()
        cell = (round(y + 0.5), round(x + 0.5))
    return np.asarray(ax.images[0].get_array()), texts, cell


def text_of(fig, gid):
    """The figure text of that gid, its wrapped lines joined again."""
    (text,) = [t.get_text() for t in fig.texts if t.get_gid() == gid]
    return " ".join(text.split())


GAMES = [  # keep-going with detonations, classic lost, a probability agent told the total
    dict(agent="basic", size=(6, 7), mines=12, seed=4),
    dict(agent="basic", size=9, mines=10, seed=3, rules="classic", game=1),
    dict(agent="probability", size=(7, 8), mines=14, seed=1, mine_count=True),
]


@pytest.mark.parametrize("kw", GAMES)
def test_plot_draws_the_cells_the_trace_says(kw):
    kw = dict(kw)
    t = play(kw.pop("agent"), kw.pop("size"), **kw)
    n = len(t.moves)
    assert (t.moves.outcome == "detonated").any() or t.result["won"]
    for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n}):
        st, glyph, view = replay(t, k)
        fig = t.plot(k)
        image, texts, cell = drawn(fig)
        assert image.tolist() == st.tolist()
        hidden_mines = (st == HIDDEN) & t.mines
        if k == n:  # the end shows the mines still hidden, and only then by default
            glyph.update({(r, c): "M" for r, c in zip(*np.nonzero(hidden_mines))})
        assert texts == glyph
        if k:
            mv = t.moves.iloc[k - 1]
            assert cell == (mv.row, mv.col)
            caption = text_of(fig, "caption")
            assert " ".join(f"why: {mv.reason}".split()) in caption
        else:
            assert cell is None and "before the first move" in text_of(fig, "caption")
        assert t.view(k).tolist() == view.tolist()
        plt.close(fig)
    fig = t.plot(n // 2, show_mines=True)
    st, glyph, _ = replay(t, n // 2)
    marks = {rc for rc, g in drawn(fig)[1].items() if g == "M"}
    assert marks == {(r, c) for r, c in zip(*np.nonzero((st == HIDDEN) & t.mines))}
    plt.close(fig)


def test_the_caption_gives_the_move_and_its_whole_reason():
    t = play("probability", (9, 9), mines=15, seed=2)
    guess = int(np.flatnonzero(t.moves.reason.str.startswith("mine probability"))[0]) + 1
    fig = t.plot(guess)
    caption = text_of(fig, "caption")
    mv = t.moves.iloc[guess - 1]
    assert f"move {guess} of {len(t.moves)}: {mv.action} {mv.cell}" in caption
    assert " ".join(f"why: {mv.reason}".split()) in caption
    plt.close(fig)


@pytest.mark.parametrize("mine_count", [False, True])
def test_probability_shading_is_mine_probabilities_of_the_view(mine_count):
    t = play("probability", (8, 8), density=0.25, seed=5, mine_count=mine_count, prior=0.3)
    n = len(t.moves)
    for k in sorted({0, 1, n // 4, n // 2, 3 * n // 4, n}):
        st, _, view = replay(t, k)
        want = fastsweep.mine_probabilities(view, mines=t.result["mines"] if mine_count
                                            else None, prior=0.3)
        fig = t.plot(k, probabilities=True)
        shade = fig.axes[0].images[1].get_array()
        assert np.array_equal(np.ma.getmaskarray(shade), st != HIDDEN)
        assert np.array_equal(shade.data[st == HIDDEN], want[st == HIDDEN])
        bar = text_of(fig, "bar_label")
        assert "mine probability" in bar
        assert ("mine total known" in bar) == mine_count and ("prior 0.3" in bar) != mine_count
        plt.close(fig)


def test_without_probabilities_no_shading_layer():
    t = play("basic", (5, 6), mines=4, seed=2)
    fig = t.plot(5)
    assert len(fig.axes[0].images) == 1 and len(fig.axes) == 1
    plt.close(fig)


def gif_frames(path):
    with Image.open(path) as im:
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
        return im.n_frames, im.size, durations


def test_gif_has_a_frame_per_move(tmp_path):
    t = play("basic", (5, 6), mines=4, seed=2)
    n = len(t.moves)
    path = tmp_path / "game.gif"
    ks = t.animate(gif=str(path), fps=5)
    assert ks == list(range(1, n + 1))
    frames, size, durations = gif_frames(path)
    assert frames == n and size[0] > 200
    assert durations[:-1] == [200] * (n - 1) and durations[-1] == 2000  # the end held


def test_gif_every_n_moves(tmp_path):
    t = play("basic", (5, 6), mines=4, seed=2)
    n = len(t.moves)
    path = tmp_path / "game.gif"
    ks = t.animate(gif=path, every_frame=7, probabilities=True)
    assert ks == frame_moves(n, 7) and len(ks) == math.ceil(n / 7)
    assert gif_frames(path)[0] == math.ceil(n / 7)


def test_each_gif_frame_draws_its_board(tmp_path, monkeypatch):
    # the frames reuse one figure's artists: each grabbed frame must show its own board
    t = play("probability", (6, 7), mines=10, seed=3)
    seen = []
    grab = pictures._GifWriter.grab_frame

    def record(self, **kw):
        seen.append(drawn(self.fig) + (text_of(self.fig, "caption"),
                                       self.fig.axes[0].images[1].get_array().copy()))
        grab(self, **kw)

    monkeypatch.setattr(pictures._GifWriter, "grab_frame", record)
    ks = t.animate(gif=tmp_path / "g.gif", every_frame=3, probabilities=True)
    assert len(seen) == len(ks) == gif_frames(tmp_path / "g.gif")[0]
    for k, (image, texts, cell, caption, shade) in zip(ks, seen):
        st, glyph, view = replay(t, k)
        if k == len(t.moves):
            glyph.update({(r, c): "M" for r, c in zip(*np.nonzero((st == HIDDEN) & t.mines))})
        mv = t.moves.iloc[k - 1]
        assert image.tolist() == st.tolist() and texts == glyph and cell == (mv.row, mv.col)
        assert caption.startswith("probability on 6x7") and f"move {k} of" in caption
        want = fastsweep.mine_probabilities(view, prior=0.5)
        assert np.array_equal(shade.data[st == HIDDEN], want[st == HIDDEN])


def test_frame_moves():
    for n in range(1, 40):
        for every in range(1, 45):
            ks = frame_moves(n, every)
            assert len(ks) == math.ceil(n / every) and ks[-1] == n
            assert ks[:-1] == list(range(every, n, every))


@pytest.mark.skipif(not animation.FFMpegWriter.isAvailable(), reason="ffmpeg not installed")
def test_mp4_is_written(tmp_path):
    t = play("basic", (5, 6), mines=4, seed=2)
    t.animate(mp4=tmp_path / "game.mp4", every_frame=10)
    assert (tmp_path / "game.mp4").stat().st_size > 1000


def test_bad_arguments(tmp_path):
    t = play("basic", (5, 6), mines=4, seed=2)
    n = len(t.moves)
    for k in (-1, n + 1, 1.5, True, "3"):
        with pytest.raises(ValueError, match=rf"^k: must be an integer in \[0, {n}\]"):
            t.plot(k)
    with pytest.raises(ValueError, match="^show_mines: must be True, False or None"):
        t.plot(3, show_mines="yes")
    with pytest.raises(ValueError, match="^width: must be a number of inches"):
        t.plot(3, width=0)
    gif = str(tmp_path / "g.gif")
    bad = [
        (dict(gif=gif, every_frame=0), "^every_frame: must be an integer >= 1"),
        (dict(gif=gif, every_frame=2.0), "^every_frame: must be an integer >= 1"),
        (dict(gif=str(tmp_path / "nosuch" / "g.gif")), "^gif: folder .*nosuch' does not exist"),
        (dict(gif=str(tmp_path / "g.png")), r"^gif: the file name must end in \.gif"),
        (dict(mp4=str(tmp_path / "g.gif")), r"^mp4: the file name must end in \.mp4"),
        (dict(), "^gif/mp4: give a file name"),
        (dict(gif=gif, fps=0), r"^fps: must be a number of frames per second in \[0.1, 50\]"),
        (dict(gif=gif, fps=float("nan")), "^fps: must be"),
        (dict(gif=gif, probabilities="yes"), "^probabilities: must be True or False"),
    ]
    for kw, msg in bad:
        with pytest.raises(ValueError, match=msg):
            t.animate(**kw)
    assert list(tmp_path.iterdir()) == []  # nothing written
    noisy = play("probability", (5, 6), mines=4, seed=2, noise="detector:p_neg=0.2,p_pos=0.1")
    with pytest.raises(ValueError, match=r"^probabilities: not available under noise"):
        noisy.plot(3, probabilities=True)
    with pytest.raises(ValueError, match=r"^view: the game was played under noise"):
        noisy.view(3)
    plt.close(noisy.plot(3))  # without the shading a noisy game is drawn




GAME = ["play", "--size", "5x6", "--mines", "4", "--seed", "2"]


def test_cli_writes_the_gif(capsys, tmp_path):
    n = len(play("basic", (5, 6), mines=4, seed=2).moves)
    path = tmp_path / "g.gif"
    code, out, err = main(capsys, *GAME, "--quiet", "--gif", str(path), "--every-frame", "4",
                          "--probabilities")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == f"wrote {math.ceil(n / 4)} frames (after moves 4..{n}) to {path}"
    assert gif_frames(path)[0] == math.ceil(n / 4)


CLI_ERRORS = [
    (["--gif", "{tmp}/nosuch/g.gif"], "--gif: folder '{tmp}/nosuch' does not exist"),
    (["--gif", "{tmp}/g.gif", "--fps", "0"], "--fps: must be a number of frames per second"),
    (["--probabilities"], "--probabilities: only with --gif FILE or --mp4 FILE"),
    (["--every-frame", "3"], "--every-frame: only with --gif FILE or --mp4 FILE"),
    (["--gif", "{tmp}/g.gif", "--every-frame", "0"],
     "argument --every-frame: must be an integer >= 1, got '0'"),
    (["--gif", "{tmp}/g.gif", "--probabilities", "--noise", "reveal:p=0.1"],
     "--probabilities: not available under noise"),
]


@pytest.mark.parametrize("extra,msg", CLI_ERRORS)
def test_cli_errors_are_one_line_before_playing(capsys, tmp_path, monkeypatch, extra, msg):
    monkeypatch.setattr("fastsweep.trace.play", lambda *a, **k: pytest.fail("played"))
    extra = [x.format(tmp=tmp_path) for x in extra]
    code, out, err = main(capsys, *GAME, *extra)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"fastsweep play: error: {msg.format(tmp=tmp_path)}")
    assert list(tmp_path.iterdir()) == []


def test_cli_mp4_without_ffmpeg(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(animation.FFMpegWriter, "isAvailable", classmethod(lambda cls: False))
    code, out, err = main(capsys, *GAME, "--mp4", str(tmp_path / "g.mp4"))
    assert (code, out) == (2, "")
    assert err == ("fastsweep play: error: --mp4: writing MP4 needs ffmpeg, which is not "
                   "installed (not found on the PATH); install ffmpeg or write a GIF instead\n")
