"""A tiny game registered only for the kiosk's tests: rolls, simultaneous placements, a secret.

The kiosk must work with any engine, and its tests must not wait for the real ones: "kfake" has a
dice outcome (`roll`, not undoable), a placement every seat makes (`place`, undoable) and a secret
(`stack`, hidden from the other seat and from the public view), like Knister and Joust together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import (
    Action,
    DiceRequest,
    Game,
    IllegalAction,
    State,
    expect,
    int_field,
    list_field,
    seat_field,
)
from engine.registry import _GAMES, register

HEADER = {"game": "kfake", "players": ["Ana", "Ben"]}


@dataclass(frozen=True)
class Roll(Action):
    act: ClassVar[str] = "roll"
    dice: tuple[int, int]

    @classmethod
    def from_json(cls, obj):
        dice = list_field(obj, "dice")
        return cls(tuple(int_field({"d": d}, "d", 1, 6) for d in dice))


@dataclass(frozen=True)
class Place(Action):
    act: ClassVar[str] = "place"
    undoable: ClassVar[bool] = True
    seat: int
    cell: int

    @classmethod
    def from_json(cls, obj):
        return cls(seat_field(obj), int_field(obj, "cell", 0, 8))


@dataclass(frozen=True)
class Stack(Action):
    act: ClassVar[str] = "stack"
    undoable: ClassVar[bool] = True
    seat: int
    cards: tuple[int, ...]

    @classmethod
    def from_json(cls, obj):
        return cls(seat_field(obj), tuple(list_field(obj, "cards")))


@dataclass(frozen=True)
class FakeState(State):
    game: Game
    sum: int | None = None
    waiting: tuple[int, ...] = ()
    sheets: tuple[tuple[int | None, ...], ...] = ()
    stacks: tuple[tuple[int, ...] | None, ...] = ()

    def turn(self):
        return self.waiting

    def dice(self):
        return None if self.waiting or self.is_over() else DiceRequest("pips", 2, None, "roll")

    def legal_actions(self):
        return []

    def apply(self, action):
        n = self.game.num_players
        if isinstance(action, Roll):
            expect(not self.waiting, f"seats {list(self.waiting)} must write {self.sum} first")
            return FakeState(self.game, sum(action.dice), tuple(range(n)), self.sheets, self.stacks)
        if isinstance(action, Stack):
            stacks = list(self.stacks)
            stacks[action.seat] = action.cards
            return FakeState(self.game, self.sum, self.waiting, self.sheets, tuple(stacks))
        expect(action.seat in self.waiting, f"seat {action.seat} has nothing to write now")
        sheet = list(self.sheets[action.seat])
        expect(sheet[action.cell] is None, f"cell {action.cell} is already written")
        sheet[action.cell] = self.sum
        sheets = list(self.sheets)
        sheets[action.seat] = tuple(sheet)
        waiting = tuple(s for s in self.waiting if s != action.seat)
        return FakeState(self.game, self.sum, waiting, tuple(sheets), self.stacks)

    def view(self, seat=None):
        phase = "over" if self.is_over() else "place" if self.waiting else "roll"
        stacks = [
            list(s) if s is not None and seat in (None, i) else None
            for i, s in enumerate(self.stacks)
        ]
        return {
            "phase": phase,
            "sum": self.sum,
            "waiting": list(self.waiting),
            "sheets": [list(s) for s in self.sheets],
            "stacks": stacks,
        }

    def public_view(self):
        return {**self.view(None), "stacks": [None] * len(self.stacks)}

    def is_over(self):
        return all(None not in s for s in self.sheets)

    def winners(self):
        return ()


@register
class FakeGame(Game):
    name = "kfake"
    titles: ClassVar[dict[str, str]] = {"fr": "Jeu factice", "en": "Fake game"}
    actions: ClassVar[dict[str, type[Action]]] = {"roll": Roll, "place": Place, "stack": Stack}

    def initial_state(self):
        n = self.num_players
        return FakeState(self, None, (), tuple((None,) * 9 for _ in range(n)), (None,) * n)


def play_round(post: Any, a: int, b: int, cells: tuple[int, int]) -> None:
    """A roll and both seats' placements, through any `post(line)`."""
    post({"act": "roll", "dice": [a, b]})
    for seat, cell in enumerate(cells):
        post({"act": "place", "seat": seat, "cell": cell})


def test_fake_game_is_registered_and_judges() -> None:
    assert _GAMES["kfake"] is FakeGame
    game = FakeGame(["Ana", "Ben"])
    state = game.initial_state().apply(game.parse_action({"act": "roll", "dice": [2, 3]}))
    assert state.view()["waiting"] == [0, 1]
    try:
        state.apply(game.parse_action({"act": "roll", "dice": [1, 1]}))
    except IllegalAction as err:
        assert "must write 5" in str(err)
    else:
        raise AssertionError("a second roll before writing was accepted")


class KioskServer:
    """`python -m kiosk.app` in a subprocess on a free port, for the crash, browser and benchmark
    runs: the real server, killable with SIGKILL."""

    def __init__(self, data_dir, port: int | None = None):
        self.data_dir, self.port = str(data_dir), port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self) -> KioskServer:
        import subprocess
        import sys

        cmd = [sys.executable, "-m", "kiosk.app", "--port", str(self.port), "--data", self.data_dir]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self._wait_up()
        return self

    def _wait_up(self, seconds: float = 20.0) -> None:
        import time

        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kiosk exited: {self.proc.stdout.read().decode()}")
            try:
                httpx.get(self.url + "/api/i18n", timeout=0.5)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("kiosk did not start within 20 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, like a power cut."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except Exception:
                self.proc.kill()
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()

    def __enter__(self) -> KioskServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
