"""Joust: a new game refuses a track where the knights never meet; records still replay."""

from __future__ import annotations

from engine.joust import PLAYABLE_TRACK, JoustGame
from engine.record import replay


def test_a_track_past_42_is_refused_in_french_and_english():
    problem = JoustGame.setup_problem({"track": PLAYABLE_TRACK + 1})
    assert problem is not None
    assert "43" in problem["fr"] and "au plus 42" in problem["fr"]
    assert "43" in problem["en"] and "42 at most" in problem["en"]


def test_playable_tracks_are_accepted():
    assert JoustGame.setup_problem({}) is None  # the default track
    assert JoustGame.setup_problem({"track": PLAYABLE_TRACK}) is None


def test_a_record_on_a_long_track_still_replays():
    header = '{"game": "joust", "players": ["A", "B"], "options": {"track": 43}}'
    assert replay(header).state.view()["track"] == 43
