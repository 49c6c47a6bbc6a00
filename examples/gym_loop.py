"""A single Gymnasium environment: 5 classic games on the 9x9 board with 10 mines, played
by a simple policy (reveal the first hidden cell of the game's guess order, given in
``info["order"]``), then the same policy through ``fastsweep.run``: episode k after
``reset(seed=s)`` is run's game k for seed s, so both give the same results. (A step
reveals one cell here, as a move of ``fastsweep.run``'s agents does, so the two pair move
for move; ``open_zeros=True``, or a level id such as ``fastsweep/Minesweeper-Beginner-v0``,
opens a 0's neighbours in the same step, as the classic game does.)

Run (after the Quick start): .venv/bin/python examples/gym_loop.py
"""
import gymnasium as gym

import fastsweep
import fastsweep.gym  # registers fastsweep/Minesweeper-v0

env = gym.make("fastsweep/Minesweeper-v0", size=9, mines=10, rules="classic",
               render_mode="ansi")
revealed = []
obs, info = env.reset(seed=1)
for episode in range(5):
    total, done = 0.0, False
    while not done:
        action = next(c for c in info["order"] if obs["action_mask"][c])  # a hidden cell
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    print(f"game {info['game']}: return {total:+.0f}, {info['revealed']} cells revealed, "
          f"{'won' if info['won'] else 'lost'}")
    revealed.append(info["revealed"])
    if episode == 4:
        print(env.render())
    obs, info = env.reset()  # the next game


def first_hidden(obs):  # the same policy as a fastsweep agent
    cell = next(int(c) for c in obs.order if obs.view.flat[c] == -1)
    return divmod(cell, obs.view.shape[1])


df = fastsweep.run(first_hidden, 9, mines=10, rules="classic", games=5, seed=1)
print("fastsweep.run, the same games:", df.revealed.tolist(),
      "identical" if df.revealed.tolist() == revealed else "DIFFERENT")
