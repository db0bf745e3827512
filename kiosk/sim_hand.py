"""The hand over the simulated table: it throws the dice the table's game waits for.

With `arbitre run --camera sim` there are no real dice, so someone must throw them: this hand
watches the table's state (not the camera) and acts like a player would — places the start die,
throws one die or the grand throw, takes the pairs and sets crosses and lost dice aside once the
record has the throw, rolls the two dice of Knister and Détrak, re-throws a cocked die when the
table asks. In Strike's "go on or stop" moment it waits `choose_wait_s` so a seat can press stop.

It only ever learns outcomes through the camera, like the real table: the faces go from the
simulated frames through the reader to the record.
"""

from __future__ import annotations

import time
from typing import Any

from kiosk.controllers import Decision

COCKED_WAIT_S = 2.0  # a die left cocked this long is thrown again without being asked


class SimHand:
    """The players' hand for the simulated table, paced like people: vision.sim.Follower does the
    moves the engine's state asks for; this adds the table's side — a pause after each recorded
    action, time for a seat to press stop before going on, nothing while a check is open, a
    cleared table for a new game, and a cocked die thrown again when the table asks."""

    def __init__(
        self, table: Any, cam: Any, pause_s: float = 0.8, choose_wait_s: float = 4.0
    ) -> None:
        from vision.sim.follow import Follower

        self.table, self.cam = table, cam
        self.follower = Follower(cam)
        # One hand re-rolls cocked dice, this one: when the table asks, or when a die stays cocked
        # for COCKED_WAIT_S (a player notices); two owners re-rolled the same die twice over.
        self.follower.fix_cocked = False
        self.pause_s, self.choose_wait_s = pause_s, choose_wait_s
        self._seen: tuple[Any, int] | None = None
        self._since = 0.0
        self._reroll = False
        self._cocked_since: float | None = None
        self._look = False
        self._go_on = False

    def go_on(self) -> None:
        """A seat pressed "go on" on its phone or the kiosk: throw without waiting."""
        self._go_on = True

    def on_decision(self, decision: Decision) -> None:
        """The camera loop's decisions: a cocked die is thrown again by the hand."""
        if decision.kind == "reroll":
            self._reroll = True

    def on_reroll_request(self) -> None:
        """The players closed a check to throw the doubtful die again: a cocked die is thrown
        again; when none is cocked the hand passes over the dice, so the camera looks again."""
        self._reroll = self._look = True

    def threw_for(self, state: Any) -> bool:
        """Whether the hand already threw (or rolled) what this state asks for."""
        from vision.sim.follow import state_key

        return self.follower.served == state_key(state)

    def step(self) -> None:
        """Called before each frame is read: act when the table is still and waits for dice."""
        state = self.table.state
        if state is None or not self.cam.settled:
            return
        seen = (getattr(self.table, "game_id", None), self.table.seq)
        if seen != self._seen:
            if self._seen is None or seen[0] != self._seen[0]:
                self.cam.clear()  # a new game: a bare table
            self._seen, self._since = seen, self.cam.now
        if self.cam.now - self._since < self.pause_s or self.table.pending is not None:
            return
        if self._fix_cocked(state):
            return
        waited = self.cam.now - self._since >= self.pause_s + self.choose_wait_s
        if self.follower.step(state, go_on=waited or self._go_on):
            self._go_on = False

    def _fix_cocked(self, state: Any) -> bool:
        """Throw a cocked die again when asked, or once it has lain cocked for a while. Asked
        when no die is cocked (the camera misread), the hand has nothing to do: the request
        lapses, and the table looks again by itself (kiosk.camera_loop)."""
        if not any(d.plan.cocked for d in self.cam.arena_dice()):
            look, self._reroll, self._look, self._cocked_since = self._look, False, False, None
            if look:
                self.cam.hand_in_view(seat=_seat(state), duration=0.6)
            return look
        if self._cocked_since is None:
            self._cocked_since = self.cam.now
        if not self._reroll and self.cam.now - self._cocked_since < COCKED_WAIT_S:
            return False
        self._reroll, self._look, self._cocked_since = False, False, None
        self.cam.reroll_cocked(seat=_seat(state))
        return True


def _seat(state: Any) -> int:
    turn = state.turn()
    return turn[0] if turn else 0


class SimTableSource:
    """A frame source for `arbitre run --camera sim`: the simulated table of the table's game.

    The simulated camera shows one game's dice, so a new one is made when the table starts a
    game of another kind; the hand plays its dice before each frame. Games without dice show no
    camera (read() gives None and the loop idles).
    """

    name = "sim"

    def __init__(
        self,
        table: Any,
        size: tuple[int, int] = (1280, 960),
        seed: int = 0,
        realtime: bool = False,
        choose_wait_s: float = 4.0,
    ) -> None:
        self.table, self.size, self.seed = table, size, seed
        self.realtime, self.choose_wait_s = realtime, choose_wait_s
        self.cam: Any = None
        self.hand: SimHand | None = None
        self._for: Any = None
        self._offset: float | None = None  # wall clock minus simulated time, in real time
        table.add_listener(self._on_event)

    def _on_event(self, event: Any) -> None:
        if event.kind == "reroll" and self.hand is not None:
            self.hand.on_reroll_request()  # the players closed a check: throw it again
        notices = event.moment.notices if event.kind == "notice" else []
        if notices and str(notices[-1].get("text", "")).startswith("go_on:") and self.hand:
            self.hand.go_on()

    def _current(self) -> Any:
        state = self.table.state
        key = (getattr(self.table, "game_id", None), state.game.name if state else None)
        if key != self._for:
            self._for = key
            self.cam = self.hand = None
            if state is not None and state.game.name in ("strike", "knister", "detrak"):
                from vision.sim import SimCamera

                edition = state.game.options.get("edition", "2012")
                players = min(max(state.game.num_players, 2), 5)
                self.cam = SimCamera(
                    game=state.game.name, seed=self.seed, size=self.size, players=players,
                    edition=edition,
                )  # fmt: skip
                self.hand = SimHand(self.table, self.cam, choose_wait_s=self.choose_wait_s)
                self._offset = None
        return self.cam

    def wall_time(self, sim_t: float) -> float:
        """The time.monotonic() at which simulated time sim_t is (real-time mode)."""
        return (self._offset or 0.0) + sim_t

    def _keep_up(self, cam: Any) -> None:
        """Real time: like a camera, show the table as it is now; frames the reader had no time
        for are dropped, so simulated time never lags the wall clock."""
        wall = time.monotonic()
        if self._offset is None:
            self._offset = wall - cam.now
        due = int((wall - self._offset) * cam.fps)
        if due > cam.frame_index:
            cam.skip(due - cam.frame_index)

    def now(self) -> float:
        return self.cam.now if self.cam is not None else 0.0

    def on_decision(self, decision: Decision) -> None:
        if self.hand is not None:
            self.hand.on_decision(decision)

    def read(self) -> Any:
        cam = self._current()
        if cam is None:
            return None
        if self.realtime:
            self._keep_up(cam)
        self.hand.step()
        return cam.read()

    def close(self) -> None:
        if self.cam is not None:
            self.cam.close()
