"""Tables for papers from a sweep's summary: one value per cell, pivoted by pandas
(:func:`table`; ``fastsweep table`` on the command line), as Markdown, LaTeX or CSV.

Markdown comes from a small formatter rather than ``DataFrame.to_markdown``, which needs
the ``tabulate`` package (not a dependency of fastsweep; the table is a few lines of
text). LaTeX is pandas' ``to_latex`` (booktabs rules; it needs jinja2, which Dask's extra
brings along).
"""
from __future__ import annotations

import math

import pandas as pd

from ...config import check_flag
from ..grid import member_name
from .labels import agent_labels, recorded_names

FIELDS = ("size", "density", "mines", "rules", "first_click", "first_cell", "agent",
          "mine_count")
FORMATS = ("markdown", "latex", "csv")
# values with a 95% interval in the summary, and the columns that give it
INTERVALS = {"mean_score": ("ci_half",), "win_rate": ("win_low", "win_high")}


def _fields(spec, name):
    out = [f for f in (spec.split(",") if isinstance(spec, str) else list(spec)) if f]
    bad = [f for f in out if f not in FIELDS]
    if bad or not out:
        raise ValueError(f"{name}: unknown field {', '.join(bad) or repr(spec)}; allowed: "
                         f"{', '.join(FIELDS)}")
    return out


def _cell(row, value, ci, digits, fmt):
    v = row[value]
    text = f"{v:.{digits}f}" if isinstance(v, float) else str(v)
    lo, hi = ("ci_low", "ci_high") if value == "mean_score" else ("win_low", "win_high")
    if ci and value == "mean_score" and (lo not in row or math.isclose(
            row[hi] - v, v - row[lo], rel_tol=1e-9, abs_tol=1e-12)):
        pm = r"$\pm$" if fmt == "latex" else "±"  # the normal interval: +- its half-width
        text += f" {pm} {row['ci_half']:.{digits}f}"
    elif ci:  # Gaffke's and Clopper-Pearson's are not symmetric: their ends
        text += f" [{row[lo]:.{digits}f}, {row[hi]:.{digits}f}]"
    return text


def _markdown(df):
    """A pipe table; ``df`` has string cells and one level of column labels."""
    head = [str(df.index.name or "")] + [str(c) for c in df.columns]
    rows = [[str(i)] + [str(v) for v in r] for i, r in zip(df.index, df.values)]
    line = lambda cells: "| " + " | ".join(c.replace("|", r"\|") for c in cells) + " |"  # noqa: E731
    return "\n".join([line(head), "|" + "---|" * len(head)] + [line(r) for r in rows]) + "\n"


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def _latex_escape(s):
    return "".join(_LATEX.get(ch, ch) for ch in s)


def _where(df, where, names=()):
    """The rows whose fields have the given values (``mine_count``: true/false/yes/no;
    ``agent``: its name or its label, ``names``: [{agent: label}, ...])."""
    if isinstance(where, str):
        pairs = [w.split("=", 1) for w in where.split(",") if w]
        bad = [w for w in pairs if len(w) != 2 or not w[1]]
        if bad:  # (dict() would say "dictionary update sequence element #0 has length 1")
            raise ValueError(f"where: expected FIELD=VALUE pairs, e.g. size=30x30,agent=basic, "
                             f"got {'='.join(bad[0])!r}")
        where = dict(pairs)
    if where is not None and not isinstance(where, dict):
        raise ValueError(f"where: expected {{field: value}} or 'FIELD=VALUE,...', got {where!r}")
    for f, v in (where or {}).items():
        if f not in FIELDS:
            raise ValueError(f"where: unknown field {f!r}; allowed: {', '.join(FIELDS)}")
        if f == "mine_count" and isinstance(v, str):
            v = {"true": True, "yes": True, "1": True, "false": False, "no": False,
                 "0": False}.get(v.lower(), v)
        if f == "agent":  # by its name or a label
            v = next((a for n in names for a, t in n.items() if t == v), v)
        have = df[f].map(lambda x: f"{x:g}" if isinstance(x, float) else str(x))
        keep = have == (f"{v:g}" if isinstance(v, float) else str(v))
        if not keep.any():
            if f == "agent" and names:
                have = df[f].map(names[-1])
            raise ValueError(f"where: no row has {f}={v}; it has {', '.join(have.unique())}")
        df = df[keep]
    return df


def _default_field(df, taken, first, second):
    """``[first]``, or when the other axis holds it already ``second`` or else the first
    field of ``FIELDS`` not there whose values vary within its cells: ``--rows agent``
    alone would otherwise meet the columns' default, agent, and fail."""
    if first not in taken:
        return [first]
    free = [f for f in (second,) + FIELDS if f not in taken]
    # (a field the taken ones fix, like mines beside density, would only spread the cells)
    varies = [f for f in free if (df.groupby(taken, sort=False)[f].nunique() > 1).any()]
    return [(varies or free)[0]]


def table(summary, rows=None, cols=None, value="mean_score", ci=False,
          fmt="markdown", digits=3, where=None, labels=None) -> str:
    """A pivot table of one summary column as text.

    ``summary``: a sweep's summary DataFrame, a :class:`SweepResult` or a sweep folder.
    ``rows`` / ``cols``: fields (comma-separated or lists) from ``FIELDS``; by default
    ``density`` / ``agent``, or, when the other one holds that field, the other of the
    two (``rows="agent"`` alone puts the densities in columns), with the fields that
    tell configurations apart (``size`` in a sweep of several) leading default rows; ``agent``
    reads "inference + total" for an agent told the mine total unless ``mine_count`` is
    a field itself. ``value``: a numeric summary column; ``ci``: append the 95% interval
    (its ends; ``± half-width`` for a symmetric one, as older folders' normal intervals).
    ``where``:
    ``{field: value}`` (or ``"size=30x30,agent=basic,mine_count=yes"``) keeps only those
    rows (before agents are named "+ total"; an agent by its name or its label).
    ``labels``: ``{agent: label}`` or ``"AGENT=LABEL,..."``, the agents' names in the
    table (by default a built-in agent's name, a user's agent's ``name`` attribute as
    its folder (or ``SweepResult``) records it, else its import path shortened to
    ``file.py:attr``: :mod:`fastsweep.sweep.results.labels`).
    Every cell must be one configuration; otherwise the error names the fields to add.

    >>> import pandas as pd
    >>> s = pd.DataFrame(dict(height=30, width=30, mines=[180, 180, 270, 270], density=[0.2, 0.2, 0.3, 0.3],
    ...     rules="keep-going", first_click="any", first_cell="random", agent="inference",
    ...     mine_count=[False, True] * 2, mean_score=[0.986, 0.9871, 0.897, 0.899],
    ...     ci_half=[0.002, 0.002, 0.004, 0.004]))
    >>> print(table(s, ci=True), end="")
    | density | inference | inference + total |
    |---|---|---|
    | 0.2 | 0.986 ± 0.002 | 0.987 ± 0.002 |
    | 0.3 | 0.897 ± 0.004 | 0.899 ± 0.004 |
    """
    names = {}  # users' agents' recorded name attributes
    if not isinstance(summary, pd.DataFrame):
        from .summary import SweepResult, load

        if isinstance(summary, SweepResult):
            names = recorded_names(summary.params)
        else:  # a folder: the names params.json records (no agent's code imported for them)
            import os

            from ..folder.store import folder_arg, read_params

            r = load(summary)
            names = recorded_names(read_params(os.path.join(folder_arg(summary, "summary"),
                                                            "params.json")))
            summary = r
        summary = summary.summary
    rows = None if rows is None else _fields(rows, "rows")
    cols = None if cols is None else _fields(cols, "cols")
    if rows is not None and cols is not None and set(rows) & set(cols):
        raise ValueError(f"rows/cols: {', '.join(sorted(set(rows) & set(cols)))} is in both")
    if fmt not in FORMATS:
        raise ValueError(f"format: unknown format {fmt!r}; allowed: {', '.join(FORMATS)}")
    if value not in summary.columns or not pd.api.types.is_numeric_dtype(summary[value]):
        num = [c for c in summary.columns if pd.api.types.is_numeric_dtype(summary[c])
               and c not in ("board", "height", "width")]
        raise ValueError(f"value: {value!r} is not a numeric summary column; allowed: "
                         f"{', '.join(num)}")
    ci = check_flag(ci, "ci")
    if ci and value not in INTERVALS:
        raise ValueError(f"ci: {value} has no interval; --ci works with "
                         f"{', '.join(INTERVALS)}")
    if not isinstance(digits, int) or isinstance(digits, bool) or not 0 <= digits <= 12:
        raise ValueError(f"digits: must be an integer in 0..12, got {digits!r}")
    df = summary.copy()
    df["size"] = df.height.astype(str) + "x" + df.width.astype(str)
    agents = list(dict.fromkeys(df.agent))
    shown = [agent_labels(agents, names), agent_labels(agents, names, labels)]
    df = _where(df, where, shown)
    df["agent"] = df.agent.map(shown[-1])
    auto_rows = rows is None
    if rows is None:
        rows = _default_field(df, cols or [], "density", "agent")
    if cols is None:
        cols = _default_field(df, rows, "agent", "density")
    if "mine_count" not in rows + cols:
        df["agent"] = [member_name(a, mc) for a, mc in zip(df.agent, df.mine_count)]
    else:
        df["mine_count"] = df.mine_count.map({True: "total known", False: "total unknown"})
    if df.duplicated(rows + cols).any():
        groups = df.groupby(rows + cols, sort=False)
        vary = [f for f in FIELDS if f not in rows + cols and (groups[f].nunique() > 1).any()]
        lead = []  # rows left to the default: the fields that tell the cells apart lead
        for f in vary if auto_rows else ():  # them ("9x9 / 0.1"), the fewest that do
            lead.append(f)
            if not df.duplicated(lead + rows + cols).any():
                return table(summary, rows=lead + rows, cols=cols, value=value, ci=ci,
                             digits=digits, fmt=fmt, where=where, labels=labels)
        raise ValueError(
            f"rows/cols: several configurations share a cell; they differ in "
            f"{', '.join(vary)}: add fields to --rows or --cols, or keep one value with "
            f"--where {vary[0]}={df[vary[0]].iloc[0]}" if vary else "rows/cols: duplicate rows")
    df["cell"] = [_cell(r, value, ci, digits, fmt) for r in df.to_dict("records")]
    for f in rows + cols:  # keep the sweep's order (pivot would sort labels), show 0.05
        labels = [f"{v:g}" if isinstance(v, float) else str(v) for v in df[f]]
        df[f] = pd.Categorical(labels, categories=list(dict.fromkeys(labels)))
    t = df.pivot_table(index=rows, columns=cols, values="cell", aggfunc="first",
                       observed=True).fillna("")
    if isinstance(t.columns, pd.MultiIndex):
        t.columns = [" / ".join(map(str, c)) for c in t.columns]
    t.columns.name = None
    if fmt == "csv":
        return t.to_csv()
    if len(rows) > 1:  # one row-label column: "30x30 / 0.2"
        t.index = pd.Index([" / ".join(map(str, i)) for i in t.index], name=" / ".join(rows))
    if fmt == "markdown":
        return _markdown(t)
    t = t.reset_index()  # the row labels' name heads their column (not a row of its own)
    t.columns = [_latex_escape(str(c)) for c in t.columns]
    t.iloc[:, 0] = [_latex_escape(str(i)) for i in t.iloc[:, 0]]
    try:
        return t.to_latex(escape=False, index=False,
                          column_format="l" + "r" * (len(t.columns) - 1))
    except ImportError as e:
        raise ValueError(f"format: latex needs pandas' optional dependency jinja2 "
                         f"(pip install jinja2): {e}") from None
