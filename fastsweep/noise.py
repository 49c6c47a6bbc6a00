"""Noise models of the sensor: the ``noise=`` option's spec, parsed and validated.

A spec is ``none``, ``detector:p_neg=A,p_pos=B``, ``reveal:p=P``, ``optimistic[:p=P]`` or
``cautious[:p=P]`` (what each model shows: ``kernels/sensor.py`` and the README's
"Noisy sensors"). Probabilities are rounded to multiples of 2**-30, the grid the sensor
draws on, so the agents' likelihoods use exactly the probabilities of the draws.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from .kernels.engine import layout as kl

#: model -> (kernel id, its parameters in order (slot a, slot b), their defaults)
MODELS = {
    "none": (kl.NOISE_NONE, (), {}),
    "detector": (kl.NOISE_DETECTOR, ("p_neg", "p_pos"), {"p_neg": 0.0, "p_pos": 0.0}),
    "reveal": (kl.NOISE_REVEAL, ("p",), {}),
    "optimistic": (kl.NOISE_OPTIMISTIC, ("p",), {"p": 1.0}),
    "cautious": (kl.NOISE_CAUTIOUS, ("p",), {"p": 1.0}),
}
_GRID = 1 << kl.NOISE_BITS


class Noise(NamedTuple):
    """A parsed noise spec: ``spec`` (normalised text), ``name``, kernel ``model``, its
    two probabilities ``a``, ``b`` (on the 2**-30 grid; 0 when unused) and their 30-bit
    cut-offs."""

    spec: str
    name: str
    model: int
    a: float
    b: float
    cut_a: int
    cut_b: int


def _allowed():
    return ("none | detector:p_neg=A,p_pos=B | reveal:p=P | optimistic[:p=P] | "
            "cautious[:p=P] (probabilities in [0, 1])")


def parse_noise(spec) -> Noise:
    """Parse a noise spec; ValueError naming ``noise`` and what is allowed.

    >>> parse_noise("detector:p_neg=0.2,p_pos=0.1").spec
    'detector:p_neg=0.2,p_pos=0.1'
    >>> parse_noise("optimistic").a
    1.0
    """
    if spec is None:
        spec = "none"
    if not isinstance(spec, str):
        raise ValueError(f"noise: expected a spec string ({_allowed()}), got {spec!r}")
    text = spec.strip().lower().replace(" ", "")
    name, _, rest = text.partition(":")
    if name not in MODELS:
        raise ValueError(f"noise: unknown model {name!r} in {spec!r}; allowed: {_allowed()}")
    model, keys, defaults = MODELS[name]
    vals = dict(defaults)
    given = set()
    if rest:
        for part in rest.split(","):
            k, eq, v = part.partition("=")
            if not eq or k not in keys:
                raise ValueError(f"noise: {name} takes {', '.join(keys) or 'no parameters'}"
                                 f", got {part!r} in {spec!r}; allowed: {_allowed()}")
            if k in given:  # the last value winning would hide a typo in the first
                raise ValueError(f"noise: {k} is given twice in {spec!r}; give each "
                                 f"parameter once")
            given.add(k)
            try:
                x = float(v)
            except ValueError:
                raise ValueError(f"noise: {k} must be a number in [0, 1], got {v!r} in "
                                 f"{spec!r}") from None
            if math.isnan(x) or not 0.0 <= x <= 1.0:
                raise ValueError(f"noise: {k} must be a probability in [0, 1], got {v!r} in "
                                 f"{spec!r}")
            vals[k] = x
    missing = [k for k in keys if k not in vals]
    if missing:
        raise ValueError(f"noise: {name} needs {', '.join(missing)} (e.g. reveal:p=0.5), got "
                         f"{spec!r}; allowed: {_allowed()}")
    cuts = [round(vals[k] * _GRID) for k in keys] + [0, 0]
    probs = [c / _GRID for c in cuts]
    norm = name + (":" + ",".join(f"{k}={vals[k]!r}" for k in keys) if keys else "")
    return Noise(norm, name, model, probs[0], probs[1], cuts[0], cuts[1])
