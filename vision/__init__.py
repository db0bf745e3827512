"""The vision reader: a frame from the camera above the table becomes a list of dice.

API (everything takes and gives plain data; nothing is loaded from disk):

- ``read(frame_bgr, dice="pips"|"strike"|"detrak", calibration=None, arena="auto"|"none"|Ellipse)
  -> Readings``: every die in one BGR uint8 frame. ``Readings.dice`` is a tuple of ``Die(face, x, y,
  size, in_arena, cocked, confidence, angle)``; ``face`` is 1..6, 2..6 or "X", or a Détrak symbol
  name, and None when the die is cocked or unreadable. ``in_arena`` is True when there is no arena.
  ``Readings.to_json()`` is contract 2 of DESIGN.md (plus ``ms``). ``Readings.faces(0.9)`` lists the
  faces of the dice in the arena with None where the confidence is below 0.9.
- ``Watcher(dice, calibration=None, arena="auto", settle_s=0.4, votes=3)``; ``watcher.feed(frame,
  t=None) -> WatchEvent | None``: ``WatchEvent("moving", t)`` when the scene starts moving,
  ``WatchEvent("settled", t, readings)`` once it has been still for ``settle_s`` seconds and
  ``votes`` frames were read and voted over. ``watcher.state`` is "moving", "settling" or "settled";
  ``watcher.last`` the last voted reading; ``watcher.reset()`` forgets the scene.
- ``Calibration(frame_size, arena, die_size)``, ``load_calibration(path)``,
  ``save_calibration(cal, path)``, ``calibrate(frame, dice)``: what `arbitre calibrate` saves.
- ``draw_overlay(frame, readings) -> image``: the reading drawn for humans.

A die whose confidence is below 0.9 should go to the players (kiosk/controllers/decision.py).
See docs/vision.md for how it works and what the benchmark says.
"""

from __future__ import annotations

from vision.calibrate import calibrate
from vision.calibration import Calibration
from vision.calibration import load as load_calibration
from vision.calibration import save as save_calibration
from vision.overlay import draw as draw_overlay
from vision.read import read
from vision.readings import DETRAK_FACES, FACES, KINDS, Die, Ellipse, Readings
from vision.watcher import Watcher, WatchEvent, vote

__all__ = [
    "DETRAK_FACES",
    "FACES",
    "KINDS",
    "Calibration",
    "Die",
    "Ellipse",
    "Readings",
    "WatchEvent",
    "Watcher",
    "calibrate",
    "draw_overlay",
    "load_calibration",
    "read",
    "save_calibration",
    "vote",
]
