"""la_play.py's games against the study's committed records: every whole chunk's wins equal."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from common import ROW, lookahead_won  # noqa: E402
from solver_study import chunk_wins  # noqa: E402

FOLDER = {"expert": "expert-safe", "16x16": "16x16-safe", "9x9": "9x9-safe",
          "16x16z": "16x16-zero", "9x9z": "9x9-zero",
          "expertz": "expert-zero"}[ROW]
path = os.path.join(REPO, "results", "solver", "runs", FOLDER, "lookahead")
won = lookahead_won()
with open(os.path.join(path, "chunks.jsonl")) as f:
    size = int(re.search(r"_c(\d+)$", json.loads(f.readline())["key"]).group(1))
bad = whole = 0
for k, (g, wins) in chunk_wins(path, len(won)).items():
    if k * size + g <= len(won):
        whole += 1
        bad += int(won[k * size:k * size + g].sum() != wins)
print(f"{ROW}: {len(won)} games, {whole} whole chunks of {size}, {bad} differ from {FOLDER}")
