"""The advisor (fastsweep.advise, fastsweep advise) and the manual-input agent.

* the manual-input agent fed a simulated game's true answers makes exactly the moves
  fastsweep.play makes (every agent, with and without the mine total);
* advise() on the position before each move of simulated games: at every guess the
  agent's own move and reason (the advisor is given the game's guess order, so random
  guesses and ties are compared too); at every deduction the agent's cell is certain
  and (rules' closure, complete deduction) the advisor's reveal is one the agent makes
  before its next guess; it never calls a mine safe or a safe cell a mine;
* probabilities and certain cells equal tests/naive.py's brute force on small positions;
* parsing and refusals (Python: ValueError naming the row and column or the argument;
  CLI: one line, exit 2); the interactive loop and the heat map; the README example.
"""
import doctest
import io
import os
import re
import shlex

import numpy as np
import pytest

import naive
import fastsweep
from fastsweep import AGENTS, ManualGame, advise, parse_position
from fastsweep.cli import advise as advise_cli
from fastsweep.advisor import advice as advisor, heatmap as advise_plot, manual, position_text
from fastsweep.agents import reason_text
from fastsweep.cli.main import main
from fastsweep.kernels.engine import layout as kl
from fastsweep.advisor.manual import guess_order

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "position.txt")
BOARDS = [((6, 7), 9), ((8, 8), 14)]  # small enough for risk, dense enough to guess


def _game(agent, size, mines, seed, game, mine_count):
    return fastsweep.play(agent, size, mines=mines, seed=seed, game=game,
                          mine_count=mine_count)


def _true_answer(t, cell):
    r, c = cell
    return "mine" if t.mines[r, c] else int(t.clues[r, c])


@pytest.mark.parametrize("agent", list(AGENTS))
def test_manual_agent_fed_the_true_answers_plays_the_simulated_game(agent):
    compared = 0
    for (h, w), m in BOARDS:
        for mine_count in (False, True):
            for game in range(2 if agent == "risk" else 3):
                t = _game(agent, (h, w), m, 5, game, mine_count)
                g = ManualGame(np.full((h, w), -1), m if mine_count else None, agent,
                               order=guess_order(h, w, 5, game), first_click="any",
                               first_cell="random")
                asked = {}
                while not g.done():
                    p = g.pending()
                    asked[len(g.moves()[0]) - 1] = p["reason"]
                    g.answer(_true_answer(t, p["cell"]))
                rows, probs = g.moves()
                mv = t.moves
                assert len(rows) == len(mv), (h, w, game, mine_count)
                assert np.array_equal(rows[:, 0], mv.kind)
                assert np.array_equal(rows[:, 1], mv.cell_index)
                assert np.array_equal(rows[:, 2], mv.out)
                np.testing.assert_array_equal(probs, mv.probability.to_numpy())
                for j, reason in asked.items():  # the reasons it gave when it asked
                    assert reason == mv.reason[j], (j, reason, mv.reason[j])
                for j in set(range(len(rows))) - set(asked):  # flags, said without asking
                    assert rows[j, 0] == kl.A_FLAG
                    assert reason_text(*rows[j, 3:6], probs[j], w) == mv.reason[j]
                compared += len(rows)
    assert compared > 300


def _batch_starts(t):
    """Moves at which the agent decides afresh: not the 2nd.. cell of a threshold batch
    (cells revealed at once without recomputing)."""
    fresh, left = [], 0
    for why in t.moves.reason:
        fresh.append(left == 0)
        if left:
            left -= 1
        elif "without recomputing" in why:
            left = int(re.search(r"one of (\d+) cells", why).group(1)) - 1
    return fresh


@pytest.mark.parametrize("agent", list(AGENTS))
def test_advice_is_the_agents_move_and_never_wrong(agent):
    guesses = deductions = 0
    for (h, w), m in BOARDS:
        for mine_count in (False, True):
            for game in range(2):
                t = _game(agent, (h, w), m, 9, game, mine_count)
                order = guess_order(h, w, 9, game)
                mv = t.moves
                cells, outs, kinds = (mv.cell_index.to_numpy(), mv.out.to_numpy(),
                                      mv.kind.to_numpy())
                clue = t.clues.ravel()
                fresh = _batch_starts(t)
                step = 1 if agent != "risk" else 3
                for k in range(0, len(mv), step):
                    view = naive.view_after(h, w, clue, cells[:k], outs[:k])
                    a = advise(view, m if mine_count else None, agent, order=order,
                               first_click="any", first_cell="random")
                    # never wrong: the board (the truth) is known here
                    assert not (a.safe & t.mines).any()
                    assert not (a.mine & ~t.mines).any()
                    assert all(t.mines[f] for f in a.flags)
                    if a.action == "reveal":
                        assert not t.mines[a.move] and a.safe[a.move]
                    here = divmod(int(cells[k]), w)
                    if kinds[k] == kl.A_GUESS:
                        if not fresh[k]:
                            continue
                        assert (a.move, a.action) == (here, "guess"), (game, k)
                        assert a.reason == mv.reason[k]
                        if "mine probability" in mv.reason[k]:  # (bruteforce: a share)
                            assert a.probability == pytest.approx(mv.probability[k], abs=1e-12)
                        assert not a.flags  # nothing certain for this agent: no flag either
                        guesses += 1
                        continue
                    # a deduction: the agent's cell is certain; for the rules' closure and
                    # complete deduction, the advisor's reveal is one the agent makes before
                    # its next guess (the reports' reductions act in batches that a fresh
                    # reduction of a later position need not repeat: soundness only)
                    assert (a.safe if kinds[k] == kl.A_REVEAL else a.mine)[here]
                    deductions += 1
                    if AGENTS[agent].family == "reports":
                        continue
                    nxt = next((j for j in range(k, len(mv)) if kinds[j] == kl.A_GUESS),
                               len(mv))
                    made = {divmod(int(c), w) for c, kd in zip(cells[k:nxt], kinds[k:nxt])
                            if kd == kl.A_REVEAL}
                    if a.action == "reveal":
                        assert a.move in made, (game, k, a.move)
                    else:  # no reveal before the next guess: only flags, then that guess
                        assert not made and (nxt == len(mv) or a.move == divmod(
                            int(cells[nxt]), w))
    assert guesses >= 8 and deductions >= 40, (guesses, deductions)


def test_probabilities_and_certain_cells_equal_brute_force():
    rng = np.random.default_rng(15)
    checked = 0
    for i in range(60):
        h, w = int(rng.integers(2, 6)), int(rng.integers(2, 7))
        view, total = naive.random_view(rng, h, w, rng.uniform(0.1, 0.5), rng.uniform(0.2, 0.7),
                                        0.3, max_hidden=12)
        if not (view == -1).any():
            continue
        mines, prior = (total, 0.5) if i % 2 else (None, float(rng.uniform(0.1, 0.9)))
        a = advise(view, mines, "probability", prior=prior)
        safe, mine, prob = naive.brute_force_view(view, mines, prior)
        assert np.array_equal(a.safe, safe) and np.array_equal(a.mine, mine)
        np.testing.assert_allclose(a.probabilities, prob, atol=1e-12)
        if safe.any():  # a certain safe cell whenever one exists
            assert a.action == "reveal" and safe[a.move]
        elif mine[view == -1].all():  # the agent flags them all: nothing to reveal
            assert a.move is None and set(a.flags) == set(map(tuple, np.argwhere(mine)))
        elif (view >= 0).any():  # (else the opening: the first click is safe)
            assert a.action == "guess"
            assert a.probability == pytest.approx(prob[view == -1].min(), abs=1e-12)
        checked += 1
    assert checked >= 50


# ---------------------------------------------------------------- parsing and refusals

def test_parse_position():
    text = "# a comment\n? . 1\n\nF*0  \n"
    assert parse_position(text).tolist() == [[-1, -1, 1], [-2, -2, 0]]
    assert parse_position("012345678").dtype == np.int8


@pytest.mark.parametrize("text,match", [
    ("??\n?x", r"row 1, column 1 \(line 2\): unknown character 'x'"),
    ("?1?\n?9?", r"row 1, column 1 \(line 2\): clue 9 is larger than 8"),
    ("???\n??", r"row 1, column 2 \(line 2\): the row ends after 2 cells; row 0 has 3"),
    ("# x\n???\n????", r"row 1, column 3 \(line 3\): the row has 4 cells; row 0 has 3"),
    ("\n# only a comment\n", r"position: no rows"),
])
def test_parse_position_refuses_with_row_and_column(text, match):
    with pytest.raises(ValueError, match=match):
        parse_position(text)


@pytest.mark.parametrize("view,mines,match", [
    ([[4, -1], [-1, -1]], None, r"view: row 0, column 0: clue 4 is larger than its number "
                                r"of neighbours \(3\)"),
    ([[-2, -2], [-2, 1]], None, r"row 1, column 1: clue 1 is smaller than its 3 known-mine"),
    ([[-1, 0, -1], [-1, 5, -1]], None, r"row 0, column 1: clue 0|row 1, column 1: clue 5"),
    ([[1, -1, -1], [-1, 0, -1]], None, r"view: row 1, column 1: clue 0 contradicts the "
                                       r"clues before it"),
    ([[1, -1], [-2, -1]], 0, r"mines: 0 is fewer than the 1 known mine of"),
    ([[1, -1], [-1, -1]], 4, r"mines: 4 is more than the view can hold"),
    ([[1, -1], [-1, -1]], 3, r"mines: no mine layout that agrees with the view has 3"),
    ([[9]], None, r"view: row 0, column 0: value 9 is not"),
])
def test_bad_positions_name_the_cell(view, mines, match):
    with pytest.raises(ValueError, match=match):
        advise(view, mines)


def test_the_blamed_clue_is_the_first_that_leaves_no_layout():
    # random positions made inconsistent by one changed clue: the clue blamed is the
    # first in row order whose addition leaves no layout (brute force), wherever it is
    rng = np.random.default_rng(3)
    blamed = 0
    for _ in range(200):
        view, _ = naive.random_view(rng, 4, 5, 0.3, 0.6, 0.0, max_hidden=12)
        clues = np.flatnonzero(view.ravel() >= 0)
        if not len(clues):
            continue
        v = view.ravel().copy()
        c = rng.choice(clues)
        v[c] = (v[c] + rng.integers(1, 3)) % 9
        v = v.reshape(view.shape)
        try:
            naive.brute_force_view(v)
            continue  # still consistent
        except ValueError:
            pass
        with pytest.raises(ValueError) as e:
            advise(v)
        m = re.search(r"row (\d+), column (\d+)", str(e.value))
        k = int(m.group(1)) * 5 + int(m.group(2))
        if "contradicts" not in str(e.value):
            continue  # a local contradiction (its own neighbours), checked above
        upto = v.ravel().copy()
        upto[[x for x in clues if x > k]] = -1
        naive_ok = []
        for shown in (upto, np.where(np.arange(20) == k, -1, upto)):
            try:
                naive.brute_force_view(shown.reshape(4, 5))
                naive_ok.append(True)
            except ValueError:
                naive_ok.append(False)
        assert naive_ok == [False, True], (v.tolist(), str(e.value))
        blamed += 1
    assert blamed >= 20


@pytest.mark.parametrize("kw,match", [
    (dict(agent="nosuch"), r"agent: unknown agent 'nosuch'"),
    (dict(prior=1.5), r"prior: must be a number strictly between 0 and 1"),
    (dict(first_click="never"), r"first_click: unknown rule 'never'"),
    (dict(first_cell=(7, 0)), r"first_cell: \(7, 0\) is off the 3x3 board"),
    (dict(order=[0, 1, 2]), r"order: expected a permutation of the 9 cell indices"),
    (dict(order=list(range(8)) + [0]), r"order: expected a permutation"),
    (dict(threshold=0.0), r"threshold: must be a number strictly between 0 and 1"),
])
def test_bad_arguments_name_the_argument(kw, match):
    with pytest.raises(ValueError, match=match):
        advise(np.full((3, 3), -1), **kw)


def test_answers_are_checked_and_undone():
    g = ManualGame(np.full((3, 3), -1), mines=1, first_click="safe")
    assert g.pending()["cell"] == (0, 0)
    with pytest.raises(ValueError, match=r"first click safe"):
        g.answer("mine")
    with pytest.raises(ValueError, match=r"clue 4 at \(0,0\) is impossible here"):
        g.answer(4)
    with pytest.raises(ValueError, match=r"expected a clue 0..8 or 'mine', got 'x'"):
        g.answer("x")
    with pytest.raises(ValueError, match=r"undo: no answer to take back"):
        g.undo()
    g.answer(0)  # the mine is out of (0,0)'s reach: its neighbours are safe
    before = g.view().copy()
    first = g.pending()["cell"]
    g.answer(1)
    assert g.view()[first] == 1
    g.undo()
    assert np.array_equal(g.view(), before) and g.pending()["cell"] == first
    z = ManualGame(np.full((4, 4), -1), mines=1, first_click="zero", first_cell=(1, 1))
    with pytest.raises(ValueError, match=r"cannot show 1"):
        z.answer(1)


# ---------------------------------------------------------------- command line

def _cli(args, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(["advise"] + args)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args,text,match", [
    (["P"], "??\n?x", r"position: row 1, column 1 \(line 2\): unknown character 'x'"),
    (["P"], "5??\n???", r"position: row 0, column 0: clue 5 is larger than its number"),
    (["P"], "0?1", r"position: row 0, column 2: clue 1 contradicts the clues before it"),
    (["P", "--mines", "3"], "1?\n??", r"--mines: no mine layout that agrees with the "
                                      r"position has 3 mines"),
    (["P", "--agent", "nosuch"], "1?\n??", r"--agent: unknown agent 'nosuch'"),
    (["P", "--png", "no/such/folder/a.png"], "1?\n??", r"--png: folder 'no/such/folder' "
                                                      r"does not exist"),
    (["P", "--png", "a.pdf"], "1?\n??", r"--png: expected a file name ending in .png"),
    (["P", "--size", "3"], "1?\n??", r"give a POSITION file .* or --size HxW"),
    ([], "", r"give a POSITION file"),
    (["-", "--interactive"], "1?\n??", r"position: - \(standard input\) cannot be used"),
    (["no_such_file.txt"], "", r"position: cannot read 'no_such_file.txt'"),
    (["P", "--prior", "2"], "1?\n??", r"--prior: must be a number strictly between"),
    (["--size", "0x3"], "", r"--size: height and width must be >= 1"),
])
def test_cli_refusals_are_one_line_with_exit_2(args, text, match, tmp_path, capsys,
                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "P").write_text(text)
    code, out, err = _cli(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("fastsweep advise: error: "), err
    assert re.search(match, err), err


def test_cli_advice_from_stdin_and_png(tmp_path, capsys, monkeypatch):
    text = "1 ? ?\n1 ? ?\n? ? ?\n"
    png = tmp_path / "heat.png"
    code, out, err = _cli(["-", "--mines", "2", "--png", str(png)], capsys, text, monkeypatch)
    assert code == 0 and err == ""
    a = advise(parse_position(text), 2)
    assert out == a.text() + f"\nwrote {png}\n"
    assert "move: reveal" in out and "[ S]" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_interactive_game_through_the_cli(capsys, monkeypatch):
    # a simulated game played through the loop with its true answers, a typing error, a
    # board request, an undo and the same answer again: the moves printed are the game's
    t = fastsweep.play("probability", (5, 6), mines=6, seed=2, mine_count=True)
    mv = t.moves
    answers = ["9", "board"]
    for j in range(len(mv)):
        if mv.kind[j] != kl.A_FLAG:
            answers.append("m" if mv.out[j] == -1 else str(mv.out[j]))
            if len(answers) == 5:
                answers += ["undo", answers[-1]]
    monkeypatch.setattr("builtins.input", _feeder(answers))
    code, out, err = _cli(["--size", "5x6", "--mines", "6", "--first-click", "any",
                           "--first-cell", "random", "--seed", "2", "--interactive"], capsys)
    assert code == 0 and err == "", err
    assert "answer: expected a clue 0..8 or 'mine', got '9'" in out
    assert "taken back" in out and "legend:" in out and "the board is done" in out
    printed = {}
    for m in re.finditer(r"^move +(\d+): (\w+) +\((\d+),(\d+)\)  (.*)$", out, re.M):
        printed[int(m.group(1))] = (m.group(2), int(m.group(3)) * 6 + int(m.group(4)),
                                    m.group(5))
    assert sorted(printed) == list(range(1, len(mv) + 1))
    assert [printed[j + 1] for j in range(len(mv))] == list(
        zip(mv.action, mv.cell_index, mv.reason))


def _feeder(answers):
    it = iter(answers)

    def read(prompt=""):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


# ---------------------------------------------------------------- docs and examples

@pytest.mark.parametrize("module", [advisor, manual, position_text, advise_cli, advise_plot])
def test_docstring_examples(module):
    r = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert r.failed == 0
    if module in (manual, position_text):  # (advise's example lives in manual.py)
        assert r.attempted > 0


def _readme_section():
    """The "Advisor" section of the site's guide page (once the README's)."""
    text = open(os.path.join(ROOT, "docs", "pages", "guide", "advisor.md")).read()
    start = text.index("## Advisor")
    end = text.index("\n#", start + 4)
    return text[start:end]


def test_readme_advisor_examples_run_verbatim(tmp_path, capsys, monkeypatch):
    sec = _readme_section()
    blocks = re.findall(r"```(\w*)\n(.*?)```", sec, re.S)
    monkeypatch.chdir(ROOT)
    commands = [b for lang, b in blocks if lang == "bash"]
    assert commands
    cmd = commands[0].splitlines()[0].split("#")[0]
    args = shlex.split(cmd)
    assert args[:2] == [".venv/bin/fastsweep", "advise"]
    shown = next(b for lang, b in blocks if lang == "")  # the output printed below it
    png = [i for i, x in enumerate(args) if x == "--png"]
    if png:
        args[png[0] + 1] = str(tmp_path / args[png[0] + 1])
    code, out, err = _cli(args[2:], capsys)
    assert code == 0, err
    assert out.replace(str(tmp_path) + "/", "") == shown
    py = [b for lang, b in blocks if lang == "python"]
    assert py
    ns = {}
    exec(compile(py[0], "docs/pages/guide/advisor.md", "exec"), ns)
    a, g = ns["a"], ns["g"]  # what the snippet's comments say
    assert (a.move, a.action, a.reason) == ((0, 5), "guess", "mine probability 0.091 "
                                            "(lowest of 222 hidden cells)")
    assert int(a.mine.sum()) == 4 and not a.safe.any() and len(a.flags) == 4
    assert g.pending()["cell"] == (0, 5)
    g.answer(2)
    assert g.pending()["reason"] == "safe by deduction from 13 clues, e.g. at (1,5)"
