"""The vector environment: 256 Expert boards (16x30, 99 mines, classic rules) stepped in
one compiled call, a uniformly random legal move on each (``random_actions``: vectorised
numpy over the action masks), auto-reset. Env i plays games i, i + 256, i + 512, ... of
``fastsweep.run``'s seed; the results of the games that end come in ``info["final_info"]``.
The first step compiles the step kernel (or loads it from Numba's cache): it is made and
timed apart, before the timed loop, so the steps/s are the warm speed.

Run (after the Quick start): .venv/bin/python examples/vector_loop.py
"""
import time

import gymnasium as gym
import numpy as np

import fastsweep.gym  # registers fastsweep/Minesweeper-v0

N = 256
t0 = time.perf_counter()
envs = gym.make_vec("fastsweep/Minesweeper-v0", num_envs=N, size=(16, 30), mines=99,
                    rules="classic", vectorization_mode="vector_entry_point")
# warm-up: the first reset and step compile the kernels (or load them from Numba's cache,
# in a few ms); timed apart, then back to game 0
obs, info = envs.reset(seed=0)
envs.step(fastsweep.gym.random_actions(obs["action_mask"], np.random.default_rng(0)))
print(f"warm-up (compile or cache load, not timed below): {time.perf_counter() - t0:.1f} s")
rng = np.random.default_rng(0)
obs, info = envs.reset(seed=0)
games, won, revealed, env0 = 0, 0, 0, []
t0 = time.perf_counter()
for step in range(400):
    actions = fastsweep.gym.random_actions(obs["action_mask"], rng)
    obs, rewards, terminated, truncated, info = envs.step(actions)
    if terminated.any():
        fi = info["final_info"]
        games += int(terminated.sum())
        won += int(fi["won"][terminated].sum())
        revealed += int(fi["revealed"][terminated].sum())
        if terminated[0]:
            env0.append(int(fi["game"][0]))
seconds = time.perf_counter() - t0
print(f"{400 * N:,} steps in {seconds:.2f} s ({400 * N / seconds:,.0f} steps/s)")
print(f"{games} games ended, {won} won, {revealed / games:.1f} cells revealed a game "
      "(random moves)")
print("env 0 played games", env0[:5], "...")
