"""vision/arena.py on rendered Strike tables whose mat is lit unevenly (scenes of the benchmark
set, seed 0, that it once got wrong: bench/bench_vision.py counted every die's in/out on them;
rendered with the cycle of conditions of that time, crossed=False)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.arena import find_arena
from vision.synth import conditions
from vision.synth.scene import KINDS, render_scene


def _benchmark_scene(i: int, seed: int = 0):
    """Scene i of benchmark_set("strike", ..., seed) until session 10, rendered alone."""
    plans = conditions.benchmark_conditions("strike", i + 1, seed, crossed=False)
    c = next(itertools.islice(plans, i, None))
    return render_scene("strike", np.random.default_rng([seed, i, KINDS.index("strike")]), **c)


@pytest.mark.parametrize("i", [28, 31])
def test_a_mat_lit_in_two_shades_is_found_whole(i):
    scene = _benchmark_scene(i)
    truth = scene.arena
    found = find_arena(scene.image)
    assert found is not None, "no arena found"
    a, b = truth["axes"]
    assert np.hypot(found.cx - truth["centre"][0], found.cy - truth["centre"][1]) < 0.1 * b
    assert abs(found.a - max(a, b)) < 0.12 * max(a, b), (found, truth["axes"])
    assert abs(found.b - min(a, b)) < 0.12 * min(a, b), (found, truth["axes"])
