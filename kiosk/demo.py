"""`arbitre demo`: bots play a whole game through the simulated camera, the reader and the table.

Everything a real table does happens here: the simulated hand throws, frames are rendered, the
watcher waits for stillness and votes, the controller decides, the table records, the LEDs follow.
Only the players are bots: they decide stop or go on, write on their sheets, stack cards, move
pieces, and when the table asks («À vérifier») they look at the dice (the simulator's truth) and
tap the wrong ones, as players would.

Misreads are counted against the simulator's truth frame by frame; `misread_rate` corrupts that
share of the reader's frames (one die gets a wrong face) to show what catches them: the vote over
settled frames, counts that cannot be, low confidence sent to the players.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from engine.bots import bot
from kiosk.table import Table

DICE_GAMES = ("strike", "knister", "detrak")
MOVING_STRIDE = 4  # frames skipped between two rendered frames while dice roll (the demo's speed)


@dataclass
class DemoStats:
    frames: int = 0
    readings: int = 0
    misreads: int = 0
    caught: int = 0
    slipped: int = 0
    confirmations: int = 0
    wrong_actions: list[dict[str, Any]] = field(default_factory=list)
    decisions: Counter = field(default_factory=Counter)  # "submit", "check: low_confidence", ...

    def line(self, winner: str) -> str:
        return (
            f"frames {self.frames}, readings {self.readings}, misreads {self.misreads}, "
            f"caught {self.caught}, confirmations {self.confirmations}, winner {winner}"
        )


def _faces_key(dice: list[dict[str, Any]], game: str) -> Counter:
    """The multiset a reading must match: faces in the arena (Strike) or of all dice; cocked as such."""
    keep = [d for d in dice if d.get("in_arena", True) or game != "strike"]
    return Counter("cocked" if d.get("cocked") else str(d.get("face")) for d in keep)


def truth_dice(cam: Any) -> list[dict[str, Any]]:
    truth = cam.truth() or {"dice": []}
    return [d for d in truth["dice"] if not d.get("aside") and not d.get("hidden")]


class CountingReader:
    """Wraps vision.read: counts readings and misreads against the truth, injects misreads."""

    def __init__(self, cam: Any, game: str, rate: float, seed: int) -> None:
        import vision

        self._read = vision.read
        self.cam, self.game, self.rate = cam, game, rate
        self.rng = random.Random(seed * 7919 + 1)
        self.stats = DemoStats()
        self.pending_misreads = 0  # misread frames not yet judged by a decision

    def __call__(self, frame: Any, *args: Any, **kwargs: Any) -> Any:
        readings = self._read(frame, *args, **kwargs)
        if self.rate and self.rng.random() < self.rate:
            readings = self._corrupt(readings)
        self.stats.readings += 1
        seen = readings.to_json()["dice"]
        if _faces_key(seen, self.game) != _faces_key(truth_dice(self.cam), self.game):
            self.stats.misreads += 1
            self.pending_misreads += 1
        return readings

    def _corrupt(self, readings: Any) -> Any:
        dice = list(readings.dice)
        readable = [i for i, d in enumerate(dice) if d.face is not None]
        if not readable:
            return readings
        from vision.readings import FACES

        i = self.rng.choice(readable)
        kind = {"strike": "strike", "knister": "pips", "detrak": "detrak"}[self.game]
        wrong = self.rng.choice([f for f in FACES[kind] if f != dice[i].face])
        dice[i] = replace(dice[i], face=wrong)
        return replace(readings, dice=tuple(dice))

    def judge(self, reached_record: bool) -> None:
        """A decision was made on the frames read since the last one: were misreads stopped?"""
        if reached_record:
            self.stats.slipped += self.pending_misreads
        else:
            self.stats.caught += self.pending_misreads
        self.pending_misreads = 0


class Players:
    """The bots at the table: each seat acts once per state, as a person tapping a phone."""

    def __init__(self, table: Table, game: str, seed: int, kinds: list[str]) -> None:
        self.table, self.rng = table, random.Random(seed)
        self.bots = [bot(game, kind) for kind in kinds]
        self._asked: set[tuple[int, int]] = set()

    def act(self) -> bool:
        state = self.table.state
        if state is None or state.is_over() or self.table.pending is not None:
            return False
        for seat in state.turn():
            key = (self.table.seq, seat)
            if key in self._asked:
                continue
            self._asked.add(key)
            action = self.bots[seat].act(state, seat, self.rng)
            if action is not None:
                self.table.submit(action.to_json(), source="phone")
                return True
        return False


def _counted(d: dict[str, Any], game: str) -> bool:
    return game != "strike" or bool(d.get("in_arena", True))


def _nearest(die: dict[str, Any], truth: list[dict[str, Any]]) -> dict[str, Any] | None:
    return min(
        truth, key=lambda t: (t["x"] - die["x"]) ** 2 + (t["y"] - die["y"]) ** 2, default=None
    )


def resolve_check(table: Table, cam: Any, game: str, stats: DemoStats, hand: Any) -> None:
    """The players look at the dice: a cocked die is thrown again; else they tap each wrong die
    to its true face and confirm. When the table missed a die or saw one too many, they type
    the whole reading (counted as a confirmation too)."""
    check = table.pending
    if check is None or not cam.settled:
        return  # players look once the dice lie still
    if not hand.threw_for(table.state):
        # The table asked about a scene where nothing was thrown (the dice were tidied and
        # misread): the players say so and close the check without recording anything.
        table.reroll(check.id)
        stats.confirmations += 1
        return
    truth = [d for d in truth_dice(cam) if _counted(d, game)]
    if game != "strike" and len(truth) != 2:
        return  # the dice are in a hand: wait for them to land
    if any(d.get("cocked") for d in truth):
        table.reroll(check.id)
        hand.on_reroll_request()
        return
    stats.confirmations += 1
    counted = [(i, d) for i, d in enumerate(check.dice) if _counted(d, game)]
    if len(counted) == len(truth) and check.line:
        for i, die in counted:
            match = _nearest(die, truth)
            if match is not None and match["face"] != die.get("face"):
                table.fix_die(check.id, i, match["face"])
        try:
            table.confirm(check.id)
            return
        except ValueError:
            pass
    line = _truth_line(table, truth)
    try:
        table.state.apply(table.game.parse_action(line))
    except ValueError:
        return  # what lies there is not a legal outcome yet (a die still in a hand): wait
    table.reroll(check.id)  # close the check without recording what it proposed
    table.submit(line, source="check")


def _truth_line(table: Table, truth: list[dict[str, Any]]) -> dict[str, Any]:
    request = table.state.dice()
    faces = [d["face"] for d in truth]
    if request.act == "roll":
        return {"act": "roll", "dice": faces}
    line: dict[str, Any] = {"act": request.act, "arena": faces}
    if request.seat is not None:
        line["seat"] = request.seat
    return line


@dataclass
class DemoOptions:
    game: str = "strike"
    players: int = 3
    seed: int = 0
    misread_rate: float = 0.0
    size: tuple[int, int] = (1280, 960)
    options: dict[str, Any] = field(default_factory=dict)
    bots: str = "greedy"
    max_frames: int = 100_000
    max_actions: int = 4000  # Stratego has no move limit: a bot game is cut there
    stall_s: float = 20.0  # simulated seconds without progress before the players step in


class DemoStalled(RuntimeError):
    """The demo made no progress: the message says where it stuck."""


def run_demo(opts: DemoOptions, table: Table, pace: Any = None) -> DemoStats:
    """Play one whole game on `table`; returns the counts. `pace()` is called after each frame."""
    names = [f"Bot {i + 1}" for i in range(opts.players)]
    table.new_game({"game": opts.game, "players": names, "options": opts.options})
    players = Players(table, opts.game, opts.seed, lineup(opts))
    if opts.game not in DICE_GAMES:
        return _play_without_camera(table, players, opts)
    return _play_with_camera(table, players, opts, pace)


def lineup(opts: DemoOptions) -> list[str]:
    """The bots by seat. Two identical greedy players of Joust or Stratego mirror each other
    (Joust ties for ever), so there the second seat plays at random unless told otherwise."""
    if opts.bots == "mixed" or (opts.bots == "greedy" and opts.game in ("joust", "stratego")):
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(opts.players)]
    return [opts.bots] * opts.players


def _play_without_camera(table: Table, players: Players, opts: DemoOptions) -> DemoStats:
    actions = 0
    while not table.state.is_over() and actions < opts.max_actions:
        if not players.act():
            raise DemoStalled(f"no seat acts in {table.state.view()}")
        actions += 1
    return DemoStats()


def _play_with_camera(table: Table, players: Players, opts: DemoOptions, pace: Any) -> DemoStats:
    from kiosk.camera_loop import CameraLoop
    from kiosk.sim_hand import SimHand
    from vision.sim import SimCamera

    cam = SimCamera(
        game=opts.game,
        seed=opts.seed,
        size=opts.size,
        players=opts.players,
        edition=opts.options.get("edition", "2012"),
    )
    reader = CountingReader(cam, opts.game, opts.misread_rate, opts.seed)
    stats = reader.stats
    hand = SimHand(table, cam, pause_s=0.6, choose_wait_s=0.0)

    def on_decision(decision: Any) -> None:
        hand.on_decision(decision)
        stats.decisions[": ".join([decision.kind, *decision.reasons[:1]])] += 1
        wrong = decision.kind == "submit" and _wrong(decision.line, cam, opts.game)
        if wrong:
            stats.wrong_actions.append(_slip(decision, cam, opts.game, table))
        reader.judge(reached_record=wrong)

    loop = CameraLoop(
        table, cam, reader=reader, frame_time=lambda: cam.now, on_decision=on_decision
    )
    progress = (table.seq, cam.now)
    while not table.state.is_over():
        players.act()
        resolve_check(table, cam, opts.game, stats, hand)
        hand.step()
        if not cam.settled:
            cam.skip(MOVING_STRIDE - 1)
        loop.step()
        stats.frames = loop.stats.frames
        if pace is not None:
            pace(cam)
        if table.seq != progress[0]:
            progress = (table.seq, cam.now)
        elif cam.now - progress[1] > opts.stall_s:
            _players_step_in(table, cam, opts.game, stats)
            progress = (table.seq, cam.now)
        if stats.frames > opts.max_frames:
            raise DemoStalled(f"no end after {stats.frames} frames at {table.state.view()}")
    reader.judge(reached_record=False)  # read after the last decision: they reached nothing
    return stats


def _wrong(line: dict[str, Any] | None, cam: Any, game: str) -> bool:
    if not line:
        return False
    faces = line.get("arena", line.get("dice", []))
    truth = [d["face"] for d in truth_dice(cam) if _counted(d, game)]
    return Counter(map(str, faces)) != Counter(map(str, truth))


def _slip(decision: Any, cam: Any, game: str, table: Table) -> dict[str, Any]:
    """What reached the record against what lay there, for stderr and the tests' messages."""
    truth = [d for d in truth_dice(cam) if _counted(d, game)]
    return {
        "seq": table.seq,
        "t": round(cam.now, 2),
        "line": decision.line,
        "truth": sorted(str(d["face"]) for d in truth),
        "seen": [
            (d.get("face"), round(d.get("x", 0)), round(d.get("y", 0)), d.get("in_arena"))
            for d in decision.dice
        ],
        "truth_all": [
            (d["face"], round(d["x"]), round(d["y"]), d["in_arena"]) for d in truth_dice(cam)
        ],
    }


def _players_step_in(table: Table, cam: Any, game: str, stats: DemoStats) -> None:
    """Nothing happened for a while although dice were thrown: the players enter what they see."""
    state = table.state
    if state.dice() is None or table.pending is not None or not cam.settled:
        raise DemoStalled(f"stuck at seq {table.seq}: {state.view()}")
    truth = [d for d in truth_dice(cam) if _counted(d, game)]
    try:
        table.submit(_truth_line(table, truth), source="kiosk")
    except ValueError as err:  # the record and the table went apart: a misread got through
        raise DemoStalled(
            f"the record no longer matches the dice at seq {table.seq}: {err}"
        ) from err
    stats.confirmations += 1


def winner_names(table: Table) -> str:
    state = table.state
    names = [table.game.players[s] for s in state.winners()]
    if not state.is_over():
        return f"none (cut after {table.seq} actions)"
    return " & ".join(names) if names else "none"
