"""bench_vision --max-tilt: the table's own figures are read on the scenes its camera could
take (mounted within 10 degrees of vertical); the phone photos tilted further are left out."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import bench_vision  # noqa: E402


def _scenes(*tilts):
    return [SimpleNamespace(conditions={"tilt": t}, name=i) for i, t in enumerate(tilts)]


def test_only_the_scenes_tilted_up_to_the_bound_are_read():
    scenes = _scenes(0.0, 9.9, 10.0, 10.1, 35.0)
    kept = [s.name for s in bench_vision.within_tilt(scenes, 10.0)]
    assert kept == [0, 1, 2]


def test_without_a_bound_every_scene_is_read():
    scenes = _scenes(0.0, 22.0, 35.0)
    assert [s.name for s in bench_vision.within_tilt(scenes, None)] == [0, 1, 2]
