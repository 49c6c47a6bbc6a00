"""Agent registry: name -> kernel id and a one-line description.

A new agent is one branch in ``kernels/policies.py`` plus one line here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AgentInfo:
    id: int
    description: str


AGENTS: dict[str, AgentInfo] = {
    "basic": AgentInfo(0, "the assignment's basic agent: single-clue rules, else a random guess"),
    "inference": AgentInfo(1, "complete deduction from all clues (and the mine total), else a random guess"),
    "probability": AgentInfo(2, "complete deduction, else the hidden cell of lowest exact mine probability"),
}


def agent_id(name: str) -> int:
    return AGENTS[name].id
