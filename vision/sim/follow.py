"""Keep the simulated table in step with a game the kiosk referees: the camera side of the demo.

The kiosk owns the engine; it reads the dice off the camera's frames and decides stop or go on
with the players. `Follower.step(state)` is called with the engine's current state (every frame,
or whenever it changes) and makes the table do what that state asks for:

- the state waits for dice (`state.dice()`): place the start die, throw (gathering the arena
  first when two or more dice are in it), or roll the two dice; once per state, so a throw is
  never repeated while the kiosk has not read it yet; in Strike's "choose" phase only when told
  the player goes on;
- a thrown die left cocked is re-rolled by the player's hand after `COCKED_WAIT_S`, so the table
  shows it cocked long enough for the kiosk to notice;
- when the engine has moved on (a throw read and applied), the table is tidied the engine's way:
  crosses and dice out set beside the box, doubled values taken; a fresh arena (a new round of
  the "points" scoring) clears the table first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from vision.sim.simcamera import SimCamera

COCKED_WAIT_S = 2.0


def state_key(state: Any) -> str:
    """What identifies a state for the table: its full view (engine states are values)."""
    return repr(sorted(state.view().items(), key=lambda kv: kv[0]))


class Follower:
    def __init__(self, cam: SimCamera):
        self.cam = cam
        self.served: str | None = None  # the state whose dice request the table answered
        self.cocked_since: float | None = None
        self.fix_cocked = True  # False when a caller (kiosk.sim_hand) re-rolls cocked dice itself

    def step(self, state: Any, go_on: bool = False) -> str | None:
        """Schedule what the state asks for; returns what was done ("throw", "tidy", ...).

        In Strike's "choose" phase the player may throw again or stop: the table throws only when
        `go_on` says the player goes on (the demo's bot, say); otherwise it waits for the stop.
        """
        cam = self.cam
        if not cam.settled:
            return None
        key = state_key(state)
        if key == self.served:
            return self._fix_cocked() if self.fix_cocked else None
        if cam.game == "strike" and self._untidy(state):
            return self._tidy(state)
        request = state.dice()
        if request is None or (getattr(state, "phase", None) == "choose" and not go_on):
            return None
        self.served = key
        seat = request.seat if request.seat is not None else 0
        if request.act == "start":
            cam.place_start(seat=seat)
            return "start"
        if request.act == "throw":
            cam.throw(request.count, gather=len(cam.arena_dice()) >= 2, seat=seat)
            return "throw"
        cam.roll_two(seat=seat)
        return "roll"

    def _fix_cocked(self) -> str | None:
        cam = self.cam
        if not any(d.plan.cocked for d in cam.arena_dice()):
            self.cocked_since = None
            return None
        if self.cocked_since is None:
            self.cocked_since = cam.now
        if cam.now - self.cocked_since < COCKED_WAIT_S:
            return None
        self.cocked_since = None
        cam.reroll_cocked()
        return "reroll"

    def _table_faces(self) -> Counter:
        return Counter(str(d.plan.face) for d in self.cam.arena_dice())

    def _untidy(self, state: Any) -> bool:
        cam = self.cam
        out = [d for d in cam.resting() if not d.plan.aside and d not in cam.arena_dice()]
        return bool(out) or self._table_faces() != Counter(str(f) for f in state.arena)

    def _tidy(self, state: Any) -> str:
        self.cam.settle_turn(seat=state.turn_seat or 0)
        after = Counter(str(d.plan.face) for d in self.cam.arena_dice() if d.hidden == float("inf"))
        if after != Counter(str(f) for f in state.arena):
            self.cam.clear()
            return "clear"
        return "tidy"
