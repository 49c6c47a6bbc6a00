"""The sweep's plain progress lines (output redirected): one every interval while games
run, even while a long chunk has not finished (they used to wait for a chunk to end)."""
import io
import time

import fastsweep
from fastsweep.sweep.run import backends, progress


class Slow:
    """Reveals the first hidden cell of the guess order, slowly (a long chunk)."""

    def act(self, obs):
        time.sleep(0.02)
        cell = next(c for c in obs.order if obs.view.flat[c] == -1)
        return divmod(int(cell), obs.view.shape[1])


def test_lines_come_every_interval_while_a_chunk_runs(monkeypatch):
    monkeypatch.setattr(progress, "INTERVAL", 0.5)
    monkeypatch.setattr(backends, "WAIT", 0.1)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    t = time.monotonic()
    # one chunk of 12 games of about 25 moves each at 20 ms a move: about 6 s in one task
    fastsweep.sweep([Slow()], 5, densities=[0.1], games=12, chunk_games=12,
                    mine_count=[False], workers=2, quiet=False)
    seconds = time.monotonic() - t
    lines = [s for s in err.getvalue().splitlines() if s.startswith("sweep: ")]
    middle = [s for s in lines if "elapsed" in s]
    assert lines[0].endswith("a line every 0.5 s") and "played in" in lines[-1]
    # a line about every 0.5 s while the single chunk ran (allow for a busy machine)
    assert len(middle) >= seconds / 0.5 * 0.5, (seconds, lines)
