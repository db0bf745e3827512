"""The table session: the one authoritative game, its seq, seat tokens, PIN, checks and subscribers.

Interface for the rest of Arbitre (camera controllers, LEDs, `arbitre run`), all thread-safe:

    table = Table(config)                      # opens config.data_path / "arbitre.sqlite", resumes
    app = kiosk.app.create_app(table, config)  # the web app around it (or create_app(config=...))
    table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
    table.import_record(jsonl_text)            # a whole game from a record (RecordError on a bad line)
    table.submit(line, seq=None, source="camera"|"kiosk"|"phone"|"button") -> State
        raises IllegalAction / BadRecord (HTTP 422), StaleSeq (409), NoGame (409)
    table.undo() -> State                      # the last placement only; IllegalAction for dice
    table.propose(line, reasons, frame_jpeg, dice) -> Check   # «À vérifier»: nothing is recorded
    table.pending                              # the open Check or None
    table.fix_die(check_id, index, face); table.confirm(check_id); table.reroll(check_id)
    table.set_frame(jpeg_bytes, dice)          # the latest camera picture and its reading
    table.camera_name = "caméra simulée"       # shown on the page
    table.notice("dice_moved_off_turn")        # an i18n key (kiosk/i18n.py) or plain text
    table.add_listener(callback)               # callback(event) after every change, any thread
    table.state, table.seq, table.game, table.tokens, table.pin

`dice` (for propose and set_frame) is a list of readings as `arbitre read` prints them:
{"face", "x", "y", "size", "in_arena", "cocked", "confidence"}. Events are numbered per process
("<boot>.<n>"); every event is a full snapshot rendered per viewer (public, table, seat n, full),
so a client that reconnects with Last-Event-ID gets what it missed, or a fresh snapshot.
Async clients subscribe with their event loop; the table hands them events with
loop.call_soon_threadsafe, so any thread may change the table (kiosk/fanout.py numbers, keeps
and hands out the events). What each viewer may see of an event is kiosk/moments.py's business.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from engine.core import Action, BadRecord, Game, IllegalAction, State
from engine.record import replay
from engine.registry import new_game
from kiosk.config import Config
from kiosk.eventlog import EventLog, Row
from kiosk.fanout import Fanout
from kiosk.late_lines import still_stands
from kiosk.moments import (
    FACES,
    PUBLIC,
    Check,
    Event,
    Frame,
    Moment,
    counts,
    guess_kind,
    line_from_dice,
    marked,
    render,
    view_for,
)

log = logging.getLogger(__name__)

HISTORY_SHOWN = 40


class StaleSeq(Exception):
    """The action was decided on an older state than the table's: someone else acted first."""

    def __init__(self, given: int, current: int):
        super().__init__(f"stale seq {given}: the table is at seq {current}, reload and try again")
        self.given, self.current = given, current


class NoGame(Exception):
    """No game is being played: start one from /setup or POST /api/games."""

    def __init__(self) -> None:
        super().__init__("no game in progress: start one from /setup (POST /api/games)")


class Table:
    """The table session. Every public method may be called from any thread."""

    def __init__(self, config: Config | None = None, eventlog: EventLog | None = None):
        self.config = config or Config()
        self.log = eventlog or EventLog(self.config.data_path / "arbitre.sqlite")
        self._lock = threading.RLock()
        self._fanout = Fanout()
        self.pin = self.log.meta("pin") or self._new_pin()
        self._camera_name = ""
        self._notices: deque[dict[str, Any]] = deque(maxlen=6)
        self._check_no = 0
        self.pending: Check | None = None
        self.frame: Frame | None = None
        self._reset(None, None, [])
        self._resume()

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        return self._states[-1] if self._states else None

    @property
    def camera_name(self) -> str:
        return self._camera_name

    @camera_name.setter
    def camera_name(self, name: str) -> None:
        with self._lock:
            self._camera_name = name
            event = self._emit("camera")
        self._tell(event)

    @property
    def last_line(self) -> dict[str, Any] | None:
        """The record line of the last action still in force (what an undo would take back)."""
        with self._lock:
            return self._entries[-1]["line"] if self._entries else None

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat a token belongs to in the current game, or None."""
        if not token:
            return None
        for seat, known in enumerate(self.tokens):
            if secrets.compare_digest(known, token):
                return seat
        return None

    def record_text(self) -> str:
        """The current game as a JSONL record (header first), the format `arbitre replay` reads."""
        with self._lock:
            if self.game is None:
                raise NoGame()
            rows = [self.game.header(), *(a.to_json() for a in self._actions)]
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)

    # -- games -------------------------------------------------------------------------------

    def new_game(self, header: dict[str, Any]) -> State:
        """Start a game from a record header; BadRecord if the header is wrong. The old game stays
        in the log."""
        game = new_game(header)
        tokens = [secrets.token_urlsafe(6) for _ in game.players]
        with self._lock:
            game_id = self.log.new_game(game.header(), tokens)
            self._reset(game, game_id, tokens)
            event = self._emit("game")
        self._tell(event)
        return self.state

    def import_record(self, text: str) -> State:
        """Start a game from a whole record; RecordError("line N: ...") loses nothing."""
        result = replay(text)
        game = result.game
        tokens = [secrets.token_urlsafe(6) for _ in game.players]
        lines = [a.to_json() for a in result.actions]
        with self._lock:
            game_id = self.log.new_game(game.header(), tokens, lines)
            self._reset(game, game_id, tokens)
            for seq, (action, state) in enumerate(
                zip(result.actions, result.states[1:], strict=True), 1
            ):
                row = Row(seq, "action", action.to_json(), "import", time.time())
                self._push(action, state, row)
            event = self._emit("game")
        self._tell(event)
        return self.state

    # -- actions -----------------------------------------------------------------------------

    def submit(self, line: dict[str, Any], seq: int | None = None, source: str = "kiosk") -> State:
        """Judge, log (committed) and apply one record line. Raises IllegalAction or BadRecord
        (the rules' reason), StaleSeq when `seq` is not the table's (but for a seat's line that
        still stands: kiosk/late_lines.py), NoGame."""
        with self._lock:
            new, event = self._apply(line, seq, source)
        self._tell(event)
        return new

    def undo(self, seq: int | None = None, source: str = "kiosk") -> State:
        """Take back the last action if it is a placement; dice outcomes stay (IllegalAction)."""
        with self._lock:
            self._current()
            if seq is not None and seq != self.seq:
                raise StaleSeq(seq, self.seq)
            if not self._actions:
                raise IllegalAction("nothing to undo: no action was recorded in this game")
            last = self._actions[-1]
            if not last.undoable:
                raise IllegalAction(
                    f'the last action ("{last.act}") cannot be undone: '
                    "only a placement can, never a dice outcome"
                )
            self.log.append(self.game_id, self.seq + 1, "undo", last.to_json(), source)
            self._pop()
            self.seq += 1
            event = self._emit("undo")
        self._tell(event)
        return self.state

    # -- checks («À vérifier») -----------------------------------------------------------------

    def propose(
        self,
        line: dict[str, Any],
        reasons: list[str],
        frame_jpeg: bytes | None = None,
        dice: list[dict[str, Any]] | None = None,
    ) -> Check:
        """Open a check on an uncertain reading; it replaces any open one. Nothing is recorded
        until a player confirms."""
        with self._lock:
            self._current()
            request = self.state.dice()
            self._check_no += 1
            self.pending = Check(
                id=self._check_no,
                line=dict(line),
                reasons=list(reasons),
                dice=[dict(d) for d in (dice or [])],
                frame=frame_jpeg,
                kind=request.kind if request else guess_kind(dice or []),
            )
            check, event = self.pending, self._emit("check")
        self._tell(event)
        return check

    def fix_die(self, check_id: int, index: int, face: Any) -> Check:
        """A player taps a die to give its true face; the proposed line follows."""
        with self._lock:
            check = self._open_check(check_id)
            if not 0 <= index < len(check.dice):
                raise IllegalAction(f"die must be 0..{len(check.dice) - 1}, not {index}")
            faces = FACES.get(check.kind or "", FACES["pips"])
            if face not in faces:
                raise IllegalAction(f"face must be one of {faces}, not {face!r}")
            check.dice[index].update(face=face, cocked=False, confidence=1.0, fixed=True)
            check.line = line_from_dice(check.line, check.dice)
            event = self._emit("check")
        self._tell(event)
        return check

    def confirm(self, check_id: int, source: str = "check") -> State:
        """Record the checked reading; the check stays open if the rules refuse it."""
        with self._lock:
            check = self._open_check(check_id)
            unread = [i for i, d in enumerate(check.dice) if counts(d) and d.get("face") is None]
            if unread:
                raise IllegalAction(
                    f"die {unread[0]} is unread: tap it to set its face, or ask for a re-roll"
                )
            state, recorded = self._apply(check.line, None, source)
            self.pending = None
            event = self._emit("check")
        self._tell(recorded)
        self._tell(event)
        return state

    def reroll(self, check_id: int) -> None:
        """Close the check without recording: the players throw the cocked die again."""
        with self._lock:
            self._open_check(check_id)
            self.pending = None
            self._notices.append(_notice("reroll_notice"))
            event = self._emit("reroll")
        self._tell(event)

    # -- camera and messages -----------------------------------------------------------------

    def set_frame(self, jpeg: bytes, dice: list[dict[str, Any]] | None = None) -> None:
        with self._lock:
            n = self.frame.n + 1 if self.frame else 1
            self.frame = Frame(n, jpeg, [dict(d) for d in dice or []], time.time())
            event = self._emit("frame")
        self._tell(event)

    def notice(self, key_or_text: str) -> None:
        """A short message for the page: an i18n key (translated there) or plain text."""
        with self._lock:
            self._notices.append(_notice(key_or_text))
            event = self._emit("notice")
        self._tell(event)

    # -- listeners and subscribers -----------------------------------------------------------

    def add_listener(self, callback: Callable[[Event], None]) -> None:
        """callback(event) after every change, in the thread that made it; event.kind says what."""
        with self._lock:
            self._fanout.add_listener(callback)

    def remove_listener(self, callback: Callable[[Event], None]) -> None:
        with self._lock:
            self._fanout.remove_listener(callback)

    def subscribe(
        self, loop: asyncio.AbstractEventLoop, last_id: str | None = None
    ) -> tuple[asyncio.Queue, list[Event]]:
        """A queue of future events plus what to send first: the events after `last_id` when
        still kept, else one snapshot. Atomic, so nothing falls between the two."""
        with self._lock:
            return self._fanout.subscribe(loop, last_id, self._moment)

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        with self._lock:
            self._fanout.unsubscribe(queue)

    def snapshot(self, viewer: Any = PUBLIC) -> dict[str, Any]:
        """The table now, as `viewer` may see it (what the event stream sends on connect)."""
        with self._lock:
            event = self._fanout.snapshot(self._moment())
        return self.render(event, viewer)

    def view(self, viewer: Any = PUBLIC) -> dict[str, Any]:
        """The state as `arbitre replay [--seat N]` prints it, plus seq (GET /api/state)."""
        with self._lock:
            _, state = self._current()
            seq = self.seq
        return {**view_for(state, viewer), "seq": seq}

    def render(self, event: Event, viewer: Any) -> dict[str, Any]:
        """An event as JSON data for one viewer: PUBLIC, TABLE (public + PIN), FULL or a seat."""
        return render(event, viewer, self.pin, self.config.seat_colours)

    # -- internals ---------------------------------------------------------------------------

    def _new_pin(self) -> str:
        pin = f"{secrets.randbelow(10000):04d}"
        self.log.set_meta("pin", pin)
        return pin

    def _reset(self, game: Game | None, game_id: int | None, tokens: list[str]) -> None:
        self.game, self.game_id, self.tokens = game, game_id, list(tokens)
        self._states: list[State] = [game.initial_state()] if game else []
        self._actions: list[Action] = []
        self._entries: list[dict[str, Any]] = []
        self.seq = 0
        self.pending = None

    def _resume(self) -> None:
        """Rebuild the latest game from the log, row by row; a row that no longer applies (an
        engine changed) stops the replay there and says so."""
        stored = self.log.latest_game()
        if stored is None:
            return
        try:
            game = new_game(stored.header)
        except BadRecord as err:
            log.warning("cannot resume game %s: %s", stored.id, err)
            self._notices.append(_notice(f"game {stored.id} cannot resume: {err}"))
            return
        self._reset(game, stored.id, stored.tokens)
        for row in stored.rows:
            try:
                self._replay_row(row)
            except (BadRecord, IllegalAction) as err:
                log.warning("event log row %s of game %s: %s", row.seq, stored.id, err)
                self._notices.append(_notice(f"log row {row.seq} no longer applies: {err}"))
                break

    def _replay_row(self, row: Row) -> None:
        if row.kind == "undo":
            self._pop()
            self.seq = row.seq
            return
        action = self.game.parse_action(row.line)
        self._push(action, self.state.apply(action), row)

    def _push(self, action: Action, state: State, row: Row) -> None:
        self._actions.append(action)
        self._states.append(state)
        self._entries.append({"seq": row.seq, "line": row.line, "source": row.source, "at": row.at})
        self.seq = row.seq

    def _pop(self) -> None:
        self._actions.pop()
        self._states.pop()
        self._entries.pop()

    def _apply(self, line: dict[str, Any], seq: int | None, source: str) -> tuple[State, Event]:
        game, state = self._current()
        action = game.parse_action(line)
        late = seq is not None and seq != self.seq
        if late and not still_stands(seq, self.seq, self._entries, self._states, action):
            raise StaleSeq(seq, self.seq)
        new = state.apply(action)
        row = self.log.append(self.game_id, self.seq + 1, "action", action.to_json(), source)
        self._push(action, new, row)
        return new, self._emit("action")

    def _current(self) -> tuple[Game, State]:
        if self.game is None:
            raise NoGame()
        return self.game, self.state

    def _open_check(self, check_id: int) -> Check:
        if self.pending is None:
            raise IllegalAction("no reading is waiting to be checked")
        if self.pending.id != check_id:
            raise StaleSeq(check_id, self.pending.id)
        return self.pending

    def _moment(self) -> Moment:
        frame = self.frame
        return Moment(
            game=self.game,
            game_id=self.game_id,
            state=self.state,
            seq=self.seq,
            history=self._entries[-HISTORY_SHOWN:],
            history_total=len(self._entries),
            last_undoable=bool(self._actions) and self._actions[-1].undoable,
            check=self.pending.public() if self.pending else None,
            frame={"n": frame.n, "dice": marked(frame.dice), "at": frame.at} if frame else None,
            camera=self._camera_name,
            notices=list(self._notices),
        )

    def _emit(self, kind: str) -> Event:
        """Number an event and queue it to async subscribers (under the lock)."""
        return self._fanout.publish(kind, self._moment())

    def _tell(self, event: Event) -> None:
        """Run the listeners outside the lock, so a slow LED cannot hold up the table."""
        self._fanout.tell(event)


def _notice(text: str) -> dict[str, Any]:
    return {"text": text, "at": time.time()}
