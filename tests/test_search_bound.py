"""The search's spared readings (read_learned._unless_over, session 67): where the first
network's reading shows a point cannot read the dice under the cost the search asks, the
route's other networks are not asked; every answer the search draws stays the same."""

from __future__ import annotations

import numpy as np
import pytest

from vision.find_report import face_columns
from vision.learned import crop_die, probabilities
from vision.learned.classes import kind_classes
from vision.learned.nadir import _cost
from vision.read_learned import _unless_over
from vision.synth.scene import render_scene


@pytest.mark.parametrize("kind", ["pips", "strike"])
def test_a_spared_reading_answers_every_question_as_the_whole_route_does(kind):
    scene = render_scene(kind, np.random.default_rng(5), frame=(1280, 960), n_dice=12)
    faces = face_columns(kind_classes(kind))
    dice = [t for t in scene.dice if not t.cocked][:8]
    spared = 0
    for below in [(100.0, 100.0), (1200.0, 900.0), (640.0, 1400.0), (639.5, 479.5)]:
        crops = [crop_die(scene.image, t.x, t.y, t.size, below) for t in dice]
        whole = _cost(probabilities(crops, kind)[:, faces].max(axis=1))
        for over in np.linspace(0.0, 0.1, 21):  # a search asks costs of 0.005-0.05 (sure dice)
            asked = []

            def needed(first, most, over=over, asked=asked):
                rows = _unless_over(over, faces)(first, most)
                asked.append(bool(rows.any()))
                return rows

            got = _cost(probabilities(crops, kind, needed=needed)[:, faces].max(axis=1))
            assert (got < over) == (whole < over) and (got <= over) == (whole <= over)
            if asked and not asked[0]:
                spared += 1
                assert got > over and whole > over  # both over: no answer changes
            else:
                assert got == whole
    assert spared >= 5, spared  # the others were spared, not never
