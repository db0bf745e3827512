"""Whole games on the simulated table: the engine keeps the rules, the table shows them.

A driver is a generator of `Event`s. Each `next()` schedules what happens next on the table and
returns; the caller then reads frames until `cam.settled` before asking for the next event. The
Strike driver plays through engine.strike with a bot deciding stop or go on, and mirrors the
engine on the table (pairs taken by the hand, crosses and dice out set beside the box); its
`record` is the game record (RECORDS.md) of what was played.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vision.sim.simcamera import SimCamera

PAUSE_S = 1.2  # autoplay: how long the table stays still between two actions


@dataclass(frozen=True)
class Event:
    """What was just scheduled or decided: `kind` and, for engine actions, the action's JSON."""

    kind: str  # "start", "throw", "stop", "reroll", "settle", "clear", "roll", "over", "hand"
    seat: int | None = None
    action: dict[str, Any] | None = None


def settled_throw(game: str, seed: int, size: tuple[int, int] = (1280, 960)) -> SimCamera:
    """A table with one throw's dice at rest (Strike: a start die and three throws of one die,
    a cocked die thrown again; the other games: the two dice rolled): the still scene the
    reader's checks and benchmarks look at. The next `read()` shows it."""
    cam = SimCamera(game, seed=seed, size=size)
    if game == "strike":
        cam.place_start()
        for _ in range(3):
            cam.throw(1)
        if any(d.plan.cocked for d in cam.arena_dice()):
            cam.reroll_cocked()
    else:
        cam.roll_two()
    cam.skip(cam.frames_until_settled())
    return cam


def strike_game(
    cam: SimCamera, bot: str = "greedy", seed: int = 0, record: list | None = None
) -> Iterator[Event]:
    """Play a Strike game on the table; appends the record's lines to `record` if given."""
    from engine.strike import Start, StrikeGame, Throw
    from engine.strike_bots import BOTS

    names = [f"Joueur {i + 1}" for i in range(cam.players)]
    game = StrikeGame(names, {"edition": cam.edition})
    state = game.initial_state()
    chooser = BOTS[bot]()
    rng = random.Random(seed)
    lines = record if record is not None else []
    lines.append({"game": "strike", "players": names, "options": {"edition": cam.edition}})
    while not state.is_over():
        request = state.dice()
        if state.phase == "choose":
            action = chooser.act(state, state.turn_seat, rng)
            if action is not None:
                state = state.apply(action)
                lines.append(action.to_json())
                yield Event("stop", action.seat, action.to_json())
                continue
            request = state.dice()
        if request.act == "start":
            if cam.resting():
                cam.clear()
                yield Event("clear")
            face = cam.place_start(seat=state.turn_seat or 0)
            yield Event("placing", None)
            action = Start((face,))
            state = state.apply(action)
            lines.append(action.to_json())
            yield Event("start", None, action.to_json())
            continue
        seat = request.seat
        cam.throw(request.count, gather=len(cam.arena_dice()) >= 2, seat=seat)
        yield Event("throwing", seat)
        if any(d.plan.cocked for d in cam.arena_dice()):
            yield Event("cocked", seat)  # the table shows the cocked die, settled
            cam.reroll_cocked(seat)
            yield Event("reroll", seat)
        action = Throw(seat, tuple(cam.arena_faces()))
        state = state.apply(action)
        lines.append(action.to_json())
        yield Event("throw", seat, action.to_json())
        cam.settle_turn(seat)
        yield Event("settle", seat)
    yield Event("over", state.winner)


def two_dice_game(cam: SimCamera, rolls: int | None = None) -> Iterator[Event]:
    """Knister or Détrak: roll the two dice again and again (the sheets are the players' part)."""
    n = 0
    while rolls is None or n < rolls:
        faces = cam.roll_two(seat=n % cam.players)
        key = "dice"
        yield Event("roll", n % cam.players, {"act": "roll", key: list(faces)})
        n += 1
        if n % 4 == 0:
            cam.hand_in_view(seat=n % cam.players)
            yield Event("hand", n % cam.players)
    yield Event("over")


def game_for(cam: SimCamera, seed: int = 0, record: list | None = None) -> Iterator[Event]:
    if cam.game == "strike":
        return strike_game(cam, seed=seed, record=record)
    return two_dice_game(cam)


class Autoplay:
    """Plays the table by itself as frames are read, with a pause between actions; loops games."""

    def __init__(self, cam: SimCamera):
        self.cam = cam
        self.games = 0
        self.events = game_for(cam, seed=cam.seed)
        self.next_at = 0.0
        self.last: Event | None = None

    def step(self) -> None:
        if self.cam.now < self.next_at:
            return
        self.last = next(self.events, None)
        if self.last is None or self.last.kind == "over":
            self.games += 1
            self.cam.clear()
            self.events = game_for(self.cam, seed=self.cam.seed + self.games)
        self.next_at = self.cam.scene.busy_until() + PAUSE_S


def autoplay_for(cam: SimCamera) -> Autoplay:
    return Autoplay(cam)
