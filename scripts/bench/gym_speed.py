"""Steps per second of fastsweep's Gymnasium vector env against Jumanji's ``Minesweeper``
(JAX on CPU: jit + vmap, ``VmapAutoResetWrapper``), in one run, each playing a uniformly
random legal move on every board at every step: 10x10 with 10 mines (1024 boards) and
16x30 with 99 mines (256 boards). Target: fastsweep >= 20x Jumanji's steps/s on both.

Both sides reveal one cell a step, end an episode at a detonation or when every safe
cell is revealed, and start the next game in the same step (fastsweep:
``AutoresetMode.SAME_STEP``, classic rules; its first observation already shows the
opening move, a safe one). fastsweep is also timed with Gymnasium's default NEXT_STEP
auto-reset, where the step after an episode's end only starts the next game.

* fastsweep: ``gymnasium.make_vec("fastsweep/Minesweeper-v0", ...,
  vectorization_mode="vector_entry_point")`` (one compiled call a step for all boards,
  observations copied out), the policy vectorised numpy over the action mask
  (``fastsweep.gym.random_actions``: rejection sampling, then an exact draw); one core.
* Jumanji: ``VmapAutoResetWrapper(Minesweeper(...))``, the policy (a categorical draw
  over the action mask) jitted with the step, timed two ways: a Python loop calling the
  jitted step, and ``jax.lax.scan`` over 100 steps in one jitted call; the ratio uses
  the faster. XLA may use every core.

Jumanji and JAX are benchmark-only: they live in their own virtual environment,
``.venv-bench-jumanji`` (git-ignored), made by::

    python3 scripts/bench/gym_speed.py --setup

and Jumanji's part runs in a child process with that environment's python. Without it
the Jumanji rows say so and the ratio is left empty.

Usage: python3 scripts/bench/gym_speed.py [--seconds 3] [--repeats 3] [--quick]
                                          [--no-jumanji] [--out CSV] [--setup]
  --quick   seconds: fastsweep only, short runs, nothing written unless --out is given
Writes gym_speed.csv into --out (results/gym_speed/ in the committed run) (one row per implementation, board and variant: the
median steps/s of the repeats, with date, machine and command).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-bench-jumanji"
JUMANJI_PYTHON = VENV / "bin" / "python"
PACKAGES = ["jumanji==1.1.2", "jax[cpu]==0.10.2"]  # the versions measured
BOARDS = [((10, 10), 10, 1024), ((16, 30), 99, 256)]  # size, mines, boards in the batch
TARGET = 20.0

# Jumanji's side: a fresh interpreter of its own venv. Prints a JSON line.
JUMANJI_CHILD = r"""
import json, os, sys, time
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax, jax.numpy as jnp, jumanji
from jumanji.environments import Minesweeper
from jumanji.environments.logic.minesweeper.generator import UniformSamplingGenerator
from jumanji.wrappers import VmapAutoResetWrapper
cfg = json.loads(sys.argv[1])
H, W, M, B = cfg["h"], cfg["w"], cfg["mines"], cfg["envs"]
env = VmapAutoResetWrapper(Minesweeper(generator=UniformSamplingGenerator(H, W, M)))

def policy_step(carry, _):
    state, timestep, key = carry
    key, sub = jax.random.split(key)
    # a uniformly random legal move on each board: a categorical draw over the mask
    logits = jnp.where(timestep.observation.action_mask.reshape(B, -1), 0.0, -jnp.inf)
    cell = jax.random.categorical(sub, logits)
    action = jnp.stack([cell // W, cell % W], axis=-1).astype(jnp.int32)
    state, timestep = env.step(state, action)
    return (state, timestep, key), timestep.last().sum()

step = jax.jit(lambda c: policy_step(c, None))
K = cfg["scan"]
scan = jax.jit(lambda c: jax.lax.scan(policy_step, c, None, length=K))
state, ts = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(cfg["seed"]), B))
carry = (state, ts, jax.random.PRNGKey(cfg["seed"] + 1))
res = {"jax": jax.__version__, "jumanji": jumanji.__version__,
       "devices": [str(d) for d in jax.devices()]}

def timed(call, steps_per_call, carry):
    carry, e = call(carry)  # compile, warm
    jax.block_until_ready(carry)
    rates, ends = [], 0
    for _ in range(cfg["repeats"]):
        n, t0 = 0, time.perf_counter()
        while True:
            for _ in range(cfg["calls"]):
                carry, e = call(carry)
                ends += int(e.sum()) if cfg["count_ends"] else 0
            jax.block_until_ready(carry)
            n += cfg["calls"] * steps_per_call
            dt = time.perf_counter() - t0
            if dt >= cfg["seconds"]:
                break
        rates.append(B * n / dt)
    return rates, carry

res["loop"], carry = timed(step, 1, carry)
cfg["calls"], cfg["count_ends"] = 1, True
res["scan"], carry = timed(scan, K, carry)
print(json.dumps(res))
"""


def setup():
    """Make .venv-bench-jumanji and install Jumanji and JAX (CPU) into it."""
    if not JUMANJI_PYTHON.exists():
        print(f"creating {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(JUMANJI_PYTHON), "-m", "pip", "install", "--quiet", "--upgrade",
                    "pip"], check=True)
    print(f"installing {' '.join(PACKAGES)} into {VENV}")
    subprocess.run([str(JUMANJI_PYTHON), "-m", "pip", "install", "--quiet", *PACKAGES],
                   check=True)
    print("done: python3 scripts/bench/gym_speed.py runs both sides")


def run_jumanji(size, mines, envs, seconds, repeats, timeout=1200):
    """Jumanji's rates in a child process: {"loop": [...], "scan": [...], versions} or
    {"error": why}."""
    if not JUMANJI_PYTHON.exists():
        return {"error": "not installed (python3 scripts/bench/gym_speed.py --setup)"}
    cfg = dict(h=size[0], w=size[1], mines=mines, envs=envs, seconds=seconds,
               repeats=repeats, scan=100, calls=50, count_ends=False, seed=0)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    try:
        r = subprocess.run([str(JUMANJI_PYTHON), "-c", JUMANJI_CHILD, json.dumps(cfg)],
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        return {"error": f"exit {r.returncode}: {err[-1][:200] if err else ''}"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def run_fastsweep(size, mines, envs, mode, seconds, repeats, seed=0):
    """(steps/s of each repeat, share of the time in the policy, episodes per step)."""
    import gymnasium as gym
    import numpy as np

    import fastsweep.gym
    from gymnasium.vector import AutoresetMode

    vec = gym.make_vec(fastsweep.gym.ENV_ID, num_envs=envs, size=size, mines=mines,
                       rules="classic", vectorization_mode="vector_entry_point",
                       autoreset_mode=AutoresetMode(mode))
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset(seed=seed)
    for _ in range(20):  # compile / load the kernels, warm the caches
        obs, *_ = vec.step(fastsweep.gym.random_actions(obs["action_mask"], rng))
    rates, policy, ends, steps = [], 0.0, 0, 0
    total = 0.0
    for _ in range(repeats):
        n, t0 = 0, time.perf_counter()
        while True:
            for _ in range(50):
                t1 = time.perf_counter()
                actions = fastsweep.gym.random_actions(obs["action_mask"], rng)
                policy += time.perf_counter() - t1
                obs, rewards, terminated, truncated, info = vec.step(actions)
                ends += int(terminated.sum())
            n += 50
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        rates.append(envs * n / dt)
        steps += n
        total += dt
    vec.close()
    return rates, policy / total, ends / (steps * envs)


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if "--setup" in argv:  # (before importing numpy or fastsweep: any python3 makes the venv)
        setup()
        return
    from fastsweep.studies.script_args import parse, parser
    ap = parser("gym_speed", __doc__, workers=False,
                quick="seconds: fastsweep only, short runs (checks the script)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds a timed repeat")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats (median)")
    ap.add_argument("--no-jumanji", action="store_true", help="leave Jumanji out")
    ap.add_argument("--setup", action="store_true",
                    help=f"make {VENV.name} with Jumanji and JAX, then exit")
    a = parse(ap, argv)
    import numpy as np
    import pandas as pd
    if a.quick:
        a.seconds, a.repeats, a.no_jumanji = 0.2, 1, True
    import gymnasium
    import numba

    from fastsweep.tools.bench import machine

    versions = (f"numba {numba.__version__}, numpy {np.__version__}, gymnasium "
                f"{gymnasium.__version__}")

    cmd = "python3 scripts/bench/gym_speed.py" + "".join(
        f" {x}" for x in (argv if argv is not None else sys.argv[1:]))
    rows = []
    for size, mines, envs in BOARDS:
        board = f"{size[0]}x{size[1]} / {mines} mines"
        ours = {}
        for mode in ("SameStep", "NextStep"):
            rates, pol, eps = run_fastsweep(size, mines, envs, mode, a.seconds, a.repeats)
            ours[mode] = statistics.median(rates)
            rows.append(dict(board=board, envs=envs, implementation="fastsweep",
                             variant=f"vector env, {mode} auto-reset",
                             steps_per_s=ours[mode], lo=min(rates), hi=max(rates),
                             notes=f"policy {pol:.0%} of the time; {eps:.3f} episodes end "
                                   f"a step per board; one core; {versions}"))
            print(f"{board}, {envs} boards: fastsweep {mode}: {ours[mode]:,.0f} steps/s "
                  f"(policy {pol:.0%})", flush=True)
        best = None
        if not a.no_jumanji:
            j = run_jumanji(size, mines, envs, a.seconds, a.repeats)
            if "error" in j:
                print(f"{board}: Jumanji: {j['error']}", flush=True)
                rows.append(dict(board=board, envs=envs, implementation="jumanji",
                                 variant="", steps_per_s=np.nan, notes=j["error"]))
            else:
                vers = f"jumanji {j['jumanji']}, jax {j['jax']}, {j['devices']}"
                for key, what in (("loop", "Python loop of the jitted step"),
                                  ("scan", "lax.scan of 100 steps a call")):
                    med = statistics.median(j[key])
                    best = med if best is None else max(best, med)
                    rows.append(dict(board=board, envs=envs, implementation="jumanji",
                                     variant=what, steps_per_s=med, lo=min(j[key]),
                                     hi=max(j[key]), notes=vers))
                    print(f"{board}, {envs} boards: Jumanji ({what}): {med:,.0f} steps/s",
                          flush=True)
        for r in rows:
            if r["board"] == board and r["implementation"] == "fastsweep":
                r["ratio_vs_jumanji"] = r["steps_per_s"] / best if best else np.nan
        if best:
            ratio = ours["SameStep"] / best
            print(f"{board}: fastsweep (SameStep) / Jumanji (faster way) = {ratio:.1f}x "
                  f"(target >= {TARGET:.0f}x: {'met' if ratio >= TARGET else 'missed'})",
                  flush=True)
    df = pd.DataFrame(rows)
    df["date"] = date.today().isoformat()
    df["machine"] = machine()
    df["command"] = cmd
    out = os.path.join(a.out, "gym_speed.csv")
    df.to_csv(out, index=False, float_format="%.4g")
    print(f"wrote {out}")
    from fastsweep.studies.script_args import write_run
    print("wrote", write_run(a, seconds=a.seconds, repeats=a.repeats))


if __name__ == "__main__":
    main()
