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

from typing import Any

from kiosk.controllers import Decision


class SimHand:
    def __init__(
        self, table: Any, cam: Any, pause_s: float = 0.8, choose_wait_s: float = 4.0
    ) -> None:
        self.table, self.cam = table, cam
        self.pause_s, self.choose_wait_s = pause_s, choose_wait_s
        self._seen_seq: int | None = None
        self._game_id: Any = None
        self._thrown_for: int | None = None
        self._next_at = 0.0
        self._reroll = False
        self._last_throw: Any = None

    def on_decision(self, decision: Decision) -> None:
        """The camera loop's decisions: a cocked die is thrown again by the hand."""
        if decision.kind == "reroll":
            self._reroll = True

    def on_reroll_request(self) -> None:
        """The players closed a check to throw a cocked die again."""
        self._reroll = True

    def step(self) -> None:
        """Called before each frame is read: act when the table is still and waits for dice."""
        state = self.table.state
        if state is None or not self.cam.settled or self.cam.now < self._next_at:
            return
        if self._new_game():
            return
        if self.table.seq != self._seen_seq:
            self._after_action(state)
            return
        if self._reroll:
            self._reroll = False
            self.cam.reroll_cocked(seat=_seat(state))
            return
        request = state.dice()
        if request is None or self._thrown_for == self.table.seq or self.table.pending:
            return
        if getattr(state, "phase", None) == "choose" and self._waiting_for_choice():
            return
        self._throw(state, request)
        self._thrown_for = self.table.seq

    def _new_game(self) -> bool:
        game_id = getattr(self.table, "game_id", None)
        if game_id == self._game_id:
            return False
        self._game_id = game_id
        self._seen_seq = self.table.seq
        self._thrown_for = None
        self._last_throw = None
        if self.cam.resting():
            self.cam.clear()
        return True

    def _after_action(self, state: Any) -> None:
        self._seen_seq = self.table.seq
        self._next_at = self.cam.now + self.pause_s
        if state.game.name != "strike":
            return
        last = state.last
        if last is not None and last != self._last_throw:
            self.cam.settle_turn(seat=last.seat)  # the record has the throw: tidy the arena
        self._last_throw = last
        if state.phase == "start" and self.cam.resting():
            self.cam.clear()  # a new round of the points game

    def _waiting_for_choice(self) -> bool:
        return self._next_at + self.choose_wait_s > self.cam.now

    def _throw(self, state: Any, request: Any) -> None:
        seat = request.seat if request.seat is not None else _seat(state)
        if request.act == "start":
            self.cam.place_start(seat=seat)
        elif request.act == "throw":
            self.cam.throw(request.count, gather=len(self.cam.arena_dice()) >= 2, seat=seat)
        else:
            self.cam.roll_two(seat=seat)


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

    def __init__(self, table: Any, size: tuple[int, int] = (1280, 960), seed: int = 0) -> None:
        self.table, self.size, self.seed = table, size, seed
        self.cam: Any = None
        self.hand: SimHand | None = None
        self._for: Any = None

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
                self.hand = SimHand(self.table, self.cam)
        return self.cam

    def now(self) -> float:
        return self.cam.now if self.cam is not None else 0.0

    def on_decision(self, decision: Decision) -> None:
        if self.hand is not None:
            self.hand.on_decision(decision)

    def read(self) -> Any:
        cam = self._current()
        if cam is None:
            return None
        self.hand.step()
        return cam.read()

    def close(self) -> None:
        if self.cam is not None:
            self.cam.close()
