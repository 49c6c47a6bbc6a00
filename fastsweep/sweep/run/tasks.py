"""Independent tasks on the sweep's backends, for the studies that are not grids of games
(a study's cells, layout searches, traced points): :func:`run_tasks` yields each task's
result as it finishes, so the caller can write it down at once (an interrupted study
loses nothing) and skip, on a rerun, the tasks already written.

One worker runs the tasks in this process, in order (:class:`.backends.Inline`); more
run them on a local process pool (:class:`.backends.Pool`: forked workers inherit the
compiled kernels). A task's result depends only on its arguments (its seed among them),
so the numbers are the same on any number of workers; only the order they arrive in
differs (:class:`fastsweep.studies.rows.RowFile` puts the rows back in the task order).
"""
from __future__ import annotations

import numbers

from .backends import Inline, Pool


class TaskError(RuntimeError):
    """A task raised; the message names the task (its function and arguments)."""


def run_tasks(fn, tasks, workers=1):
    """Yield ``(args, fn(*args))`` for each tuple ``args`` of ``tasks``, as each finishes.

    Tasks are submitted in the given order (put the longest first, so that the workers end
    together), at most two per worker at a time; ``fn`` must be a module-level function
    (the pool pickles it by name). A task that raises stops the run: the workers are
    stopped and :class:`TaskError` is raised, naming the task. Closing the generator
    early (or Ctrl-C) stops the workers too.

    >>> [r for _, r in run_tasks(pow, [(2, 3), (3, 2)])]
    [8, 9]
    """
    if (not isinstance(workers, numbers.Integral) or isinstance(workers, bool)
            or workers < 1):
        raise ValueError(f"workers: must be an integer >= 1, got {workers!r}")
    todo = iter(tasks)
    ex = Inline() if workers == 1 else Pool(workers)
    # Inline runs a task when it is submitted: one at a time, so each result is handed
    # over before the next task starts
    window = 1 if workers == 1 else 2 * workers
    pending = {}
    stopped = True
    try:
        for args in todo:
            pending[ex.submit(fn, *args)] = args
            if len(pending) >= window:
                break
        while pending:
            for fut in ex.wait(set(pending)):
                args = pending.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:
                    raise TaskError(f"{getattr(fn, '__name__', fn)}{tuple(args)!r} failed: "
                                    f"{type(e).__name__}: {e}") from e
                yield args, result
                nxt = next(todo, None)
                if nxt is not None:
                    pending[ex.submit(fn, *nxt)] = nxt
        stopped = False
    finally:
        ex.close(cancel=stopped)
