"""What a viewer of the table sees: the moments the table records and how each viewer renders them.

The table (kiosk/table.py) keeps the game and numbers its changes; each change is a `Moment` of
immutable references, and `render` turns it into JSON for one viewer — the public screen, the
table with its PIN, the full referee's view, or one seat — stripping what that viewer may not see
(another seat's Joust stack or Stratego setup, unrevealed ranks) before anything leaves the server.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.core import Game, State
from kiosk.controllers.decision import asked

# Record fields nobody but the acting seat (and the PIN holder) may read.
SECRET_FIELDS = {"stack": ("cards",), "setup": ("squares",)}
FACES = {
    "pips": [1, 2, 3, 4, 5, 6],
    "strike": ["X", 2, 3, 4, 5, 6],
    "detrak": ["hash", "slash", "bars", "triangle", "circle", "cross"],
}
PUBLIC, TABLE, FULL = "public", "table", "full"


@dataclass
class Check:
    """A reading the table is unsure of, waiting for the players («À vérifier»)."""

    id: int
    line: dict[str, Any]
    reasons: list[str]
    dice: list[dict[str, Any]]
    frame: bytes | None
    kind: str | None

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "line": self.line,
            "reasons": self.reasons,
            "dice": marked(self.dice),
            "frame": self.frame is not None,
            "kind": self.kind,
            "faces": FACES.get(self.kind or "", FACES["pips"]),
        }


def marked(dice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dice as the pages get them: each with "doubt", whether the table asks about it."""
    return [{**d, "doubt": asked(d)} for d in dice]


@dataclass(frozen=True)
class Frame:
    n: int
    jpeg: bytes
    dice: list[dict[str, Any]]
    at: float


@dataclass
class Moment:
    """What the table looked like at one event: immutable references, rendered per viewer later."""

    game: Game | None
    game_id: int | None
    state: State | None
    seq: int
    history: list[dict[str, Any]]
    history_total: int
    last_undoable: bool
    check: dict[str, Any] | None
    frame: dict[str, Any] | None
    camera: str
    notices: list[dict[str, Any]]


@dataclass
class Event:
    id: str
    n: int
    kind: str
    moment: Moment
    _cache: dict[Any, str] = field(default_factory=dict)

    def json(self, viewer: Any, table: Any) -> str:
        """The event as this viewer may see it, serialised once per viewer kind."""
        text = self._cache.get(viewer)
        if text is None:
            text = json.dumps(table.render(self, viewer), ensure_ascii=False)
            self._cache[viewer] = text
        return text


def render(event: Event, viewer: Any, pin: str, colours: list[str]) -> dict[str, Any]:
    """An event as JSON data for one viewer: PUBLIC, TABLE (public + PIN), FULL or a seat."""
    m = event.moment
    out: dict[str, Any] = {
        "event": event.id,
        "kind": event.kind,
        "seq": m.seq,
        "viewer": viewer if isinstance(viewer, str) else "seat",
        "seat": viewer if isinstance(viewer, int) else None,
        "camera": m.camera,
        "notices": m.notices,
        "check": m.check,
        "frame": m.frame,
        "game": None,
        "state": None,
    }
    if viewer in (TABLE, FULL):
        out["pin"] = pin
    if m.game is None or m.state is None:
        return out
    state = m.state
    out.update(
        game=_game_info(m.game, m.game_id, colours),
        state=view_for(state, viewer),
        turn=list(state.turn()),
        dice=asdict(state.dice()) if state.dice() else None,
        over=state.is_over(),
        winners=list(state.winners()),
        scores=state.scores(),
        undoable=m.last_undoable,
        history=[_redact(h, viewer) for h in m.history],
        history_total=m.history_total,
    )
    return out


def view_for(state: State, viewer: Any) -> dict[str, Any]:
    if viewer == FULL:
        return state.view(None)
    if isinstance(viewer, int):
        return state.view(viewer)
    return state.public_view()


def _game_info(game: Game, game_id: int | None, colours: list[str]) -> dict[str, Any]:
    return {
        "id": game_id,
        "name": game.name,
        "titles": dict(game.titles),
        "players": list(game.players),
        "options": dict(game.options),
        "colours": [colours[i % len(colours)] for i in range(game.num_players)],
    }


def _redact(entry: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """A history entry without the secrets of another seat (a Joust stack, a Stratego setup)."""
    line = entry.get("line") or {}
    hidden = SECRET_FIELDS.get(line.get("act"), ())
    if not hidden or viewer == FULL or (isinstance(viewer, int) and line.get("seat") == viewer):
        return entry
    return {**entry, "line": {k: v for k, v in line.items() if k not in hidden}}


def counts(die: dict[str, Any]) -> bool:
    return die.get("in_arena", True) is not False


def line_from_dice(line: dict[str, Any], dice: list[dict[str, Any]]) -> dict[str, Any]:
    """The proposed line with its faces taken from the (fixed) dice: "arena" for Strike, else
    "dice"; dice outside the arena do not count."""
    key = "arena" if "arena" in line else "dice" if "dice" in line else None
    if key is None:
        return line
    return {**line, key: [d.get("face") for d in dice if counts(d)]}


def guess_kind(dice: list[dict[str, Any]]) -> str | None:
    faces = {d.get("face") for d in dice}
    if faces & set(FACES["detrak"]):
        return "detrak"
    if "X" in faces:
        return "strike"
    return None
