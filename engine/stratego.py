"""Stratego: the rules of ../shared/rules/stratego.fr.txt as a pure engine that knows every rank.

Pieces stand face away from the opponent, so the camera sees nothing useful: Arbitre holds the
ranks and shows each seat its own, plus the opponent's once revealed (a fight, or a scout's long
move). See docs/rules/stratego.md for the rules as implemented and every choice made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, NamedTuple

from engine.core import (
    Action,
    BadRecord,
    Game,
    IllegalAction,
    Option,
    State,
    expect,
    seat_field,
)
from engine.registry import register
from engine.stratego_board import (
    LAKES,
    RAYS,
    SEAT_NAMES,
    SETUP_RANKS,
    SIZE,
    distance,
    line_between,
    parse_square,
    setup_squares,
    square_name,
)
from engine.stratego_pieces import (
    COUNTS,
    FLAG,
    IMMOBILE,
    NAMES,
    PIECES,
    SCOUT,
    Piece,
    fight,
)

PIECE_LIST = ", ".join(f'"{p}"' for p in PIECES)


def _seat(seat: int) -> str:
    return f"{SEAT_NAMES[seat]} (seat {seat})"


def _square(obj: Mapping[str, Any], key: str) -> int:
    if key not in obj:
        raise BadRecord(f'"move" needs a "{key}" field, a square such as "e4"')
    index = parse_square(obj[key])
    if index is None:
        raise BadRecord(f'"{key}" must be a square a1..j10, not {obj[key]!r}')
    return index


@dataclass(frozen=True)
class Setup(Action):
    """A seat's secret setup: every one of its 40 pieces on its four ranks."""

    act: ClassVar[str] = "setup"
    undoable: ClassVar[bool] = True  # nothing has moved yet
    seat: int
    squares: tuple[tuple[int, str], ...]  # (square, piece), by square

    @classmethod
    def of(cls, seat: int, squares: Mapping[str, str]) -> Setup:
        """From {"a1": "F", ...}, the record's form; BadRecord on a bad square or piece name."""
        pairs = []
        for name, piece in squares.items():
            index = parse_square(name)
            if index is None:
                raise BadRecord(f'setup squares must be a1..j10, not "{name}"')
            if not isinstance(piece, str) or piece not in PIECES:
                raise BadRecord(f"the piece on {name} must be one of {PIECE_LIST}, not {piece!r}")
            pairs.append((index, piece))
        return cls(seat, tuple(sorted(pairs)))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Setup:
        seat = seat_field(obj)
        squares = obj.get("squares")
        if not isinstance(squares, dict):
            raise BadRecord('"setup" needs "squares": an object such as {"a1": "F", ...}')
        return cls.of(seat, squares)

    def to_json(self) -> dict[str, Any]:
        squares = {square_name(i): p for i, p in self.squares}
        return {"act": self.act, "seat": self.seat, "squares": squares}


@dataclass(frozen=True)
class Move(Action):
    """One piece from one square to another; a fight when the square holds an enemy."""

    act: ClassVar[str] = "move"
    seat: int
    frm: int
    to: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Move:
        return cls(seat_field(obj), _square(obj, "from"), _square(obj, "to"))

    def to_json(self) -> dict[str, Any]:
        return {
            "act": self.act,
            "seat": self.seat,
            "from": square_name(self.frm),
            "to": square_name(self.to),
        }


class Repeat(NamedTuple):
    """A seat's last move and how many of its moves in a row went between these two squares."""

    frm: int
    to: int
    count: int


class Fight(NamedTuple):
    """The last move's fight: both ranks are shown to both seats (result: who survived)."""

    frm: int
    to: int
    attacker: Piece
    defender: Piece
    result: str

    def to_json(self) -> dict[str, Any]:
        return {
            "from": square_name(self.frm),
            "to": square_name(self.to),
            "attacker": [self.attacker.seat, self.attacker.rank],
            "defender": [self.defender.seat, self.defender.rank],
            "result": self.result,
        }


PUBLIC = -1  # the viewer of the table screen: no seat of its own


@dataclass(frozen=True)
class StrategoState(State):
    game: StrategoGame = field(compare=False, repr=False)
    phase: str = "setup"
    to_move: int | None = None
    cells: tuple[Piece | None, ...] = (None,) * (SIZE * SIZE)
    ready: tuple[bool, bool] = (False, False)
    captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # the pieces each seat lost
    repeats: tuple[Repeat | None, Repeat | None] = (None, None)
    last_move: Move | None = None
    last_fight: Fight | None = None
    moves: int = 0
    winner: int | None = None
    reason: str | None = None

    # --- the interface -------------------------------------------------------------------
    def turn(self) -> tuple[int, ...]:
        if self.phase == "setup":
            return tuple(s for s in (0, 1) if not self.ready[s])
        return () if self.phase == "over" else (self.to_move,)

    def legal_actions(self) -> list[Action]:
        """The moves of the seat to play; a setup is too many choices to list."""
        if self.phase != "play":
            return []
        return [Move(self.to_move, f, t) for f, t in self.moves_of(self.to_move)]

    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> tuple[int, ...]:
        if not self.is_over():
            return ()
        return (0, 1) if self.winner is None else (self.winner,)

    def apply(self, action: Action) -> StrategoState:
        expect(self.phase != "over", f"the game is over ({self._outcome()})")
        if isinstance(action, Setup):
            return self._setup(action)
        if isinstance(action, Move):
            return self._move(action)
        raise IllegalAction(f"expected a setup or a move, not {action.act!r}")

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything with seat None; with a seat, its own ranks and the revealed ones only."""
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        """The table screen: only revealed ranks, of either army."""
        return self._view(PUBLIC)

    # --- moves -----------------------------------------------------------------------------
    def moves_of(self, seat: int) -> Iterator[tuple[int, int]]:
        """Every legal (from, to) of a seat, the two-square rule included, lazily."""
        for frm, to in self._reachable(seat):
            if self._repeat_count(seat, frm, to) <= self.game.options["two_square_limit"]:
                yield frm, to

    def has_moves(self, seat: int) -> bool:
        return next(self.moves_of(seat), None) is not None

    def _reachable(self, seat: int) -> Iterator[tuple[int, int]]:
        cells, strike = self.cells, self.game.options["scout_strike"]
        for frm, piece in enumerate(cells):
            if piece is None or piece.seat != seat or piece.rank in IMMOBILE:
                continue
            for ray in RAYS[frm]:
                for steps, to in enumerate(ray, start=1):
                    other = cells[to]
                    if other is None:
                        yield frm, to
                        if piece.rank == SCOUT:
                            continue
                    elif other.seat != seat and (steps == 1 or strike):
                        yield frm, to
                    break

    def _repeat_count(self, seat: int, frm: int, to: int) -> int:
        """How many moves in a row between these two squares this move would make."""
        last = self.repeats[seat]
        if last is not None and last.to == frm and last.frm == to:
            return last.count + 1
        return 1

    # --- the rules -------------------------------------------------------------------------
    def _setup(self, action: Setup) -> StrategoState:
        seat = action.seat
        expect(self.phase == "setup", "both armies are set up: expected a move")
        expect(not self.ready[seat], f"{_seat(seat)} has already set up")
        seen = Counter(i for i, _ in action.squares)
        twice = [square_name(i) for i, n in seen.items() if n > 1]
        expect(not twice, f"each square holds one piece: {', '.join(twice)} given twice")
        zone = setup_squares(seat)
        outside = [square_name(i) for i, _ in action.squares if i not in zone]
        low, high = SETUP_RANKS[seat]
        expect(
            not outside,
            f"{_seat(seat)} sets up on ranks {low}-{high}, not on {', '.join(outside)}",
        )
        counts = Counter(p for _, p in action.squares)
        wrong = [f'{counts[p]} "{p}" (expected {n})' for p, n in COUNTS.items() if counts[p] != n]
        expect(
            not wrong,
            f"{_seat(seat)}'s setup must hold exactly its 40 pieces; it has {', '.join(wrong)}",
        )
        cells = list(self.cells)
        for index, piece in action.squares:
            cells[index] = Piece(seat, piece)
        ready = (self.ready[0] or seat == 0, self.ready[1] or seat == 1)
        state = replace(self, cells=tuple(cells), ready=ready)
        if not all(ready):
            return state
        return replace(state, phase="play", to_move=0)._settle()

    def _move(self, action: Move) -> StrategoState:
        expect(
            self.phase == "play",
            "both armies must be set up before the first move (waiting for "
            + " and ".join(_seat(s) for s in self.turn())
            + ")",
        )
        seat, frm, to = action.seat, action.frm, action.to
        expect(0 <= frm < SIZE * SIZE and 0 <= to < SIZE * SIZE, "squares run from a1 to j10")
        expect(seat == self.to_move, f"it is {_seat(self.to_move)}'s turn, not {_seat(seat)}'s")
        self._check_move(seat, frm, to)
        return self._execute(seat, frm, to)

    def _check_move(self, seat: int, frm: int, to: int) -> None:
        """IllegalAction naming the first rule the move breaks (never an enemy rank)."""
        piece, src, dst = self.cells[frm], square_name(frm), square_name(to)
        expect(piece is not None, f"there is no piece on {src}")
        expect(piece.seat == seat, f"the piece on {src} belongs to {_seat(piece.seat)}")
        name = NAMES["en"][piece.rank]
        expect(piece.rank not in IMMOBILE, f"the {name} on {src} never moves")
        expect(to not in LAKES, f"{dst} is a lake: no piece enters the lakes")
        between = line_between(frm, to)
        expect(between is not None, f"pieces move straight along a file or a rank, not {src}-{dst}")
        steps = distance(frm, to)
        expect(
            steps == 1 or piece.rank == SCOUT,
            f"only a scout moves more than one square: the {name} on {src} moves one",
        )
        for square in between:
            expect(square not in LAKES, f"{src}-{dst} crosses the lake at {square_name(square)}")
            expect(self.cells[square] is None, f"{src}-{dst} is blocked at {square_name(square)}")
        target = self.cells[to]
        expect(target is None or target.seat != seat, f"{dst} holds one of your own pieces")
        expect(
            target is None or steps == 1 or self.game.options["scout_strike"],
            "a scout that moves more than one square may not attack on the same move "
            "(option scout_strike is off)",
        )
        limit = self.game.options["two_square_limit"]
        expect(
            self._repeat_count(seat, frm, to) <= limit,
            f"a piece may not move more than {limit} times in a row between the same two "
            f"squares ({src} and {dst})",
        )

    def _execute(self, seat: int, frm: int, to: int) -> StrategoState:
        cells, captured = list(self.cells), [list(c) for c in self.captured]
        mover, target = cells[frm], cells[to]
        cells[frm] = None
        battle = None
        if target is None:
            cells[to] = mover._replace(revealed=True) if distance(frm, to) > 1 else mover
        else:
            result = fight(mover.rank, target.rank)
            battle = Fight(frm, to, mover, target, result)
            cells[to] = {
                "attacker": mover._replace(revealed=True),
                "defender": target._replace(revealed=True),
                "none": None,
            }[result]
            if result != "attacker":
                captured[seat].append(mover.rank)
            if result != "defender":
                captured[target.seat].append(target.rank)
        repeats = list(self.repeats)
        repeats[seat] = Repeat(frm, to, self._repeat_count(seat, frm, to))
        state = replace(
            self,
            cells=tuple(cells),
            captured=(tuple(captured[0]), tuple(captured[1])),
            repeats=(repeats[0], repeats[1]),
            to_move=1 - seat,
            last_move=Move(seat, frm, to),
            last_fight=battle,
            moves=self.moves + 1,
        )
        if target is not None and target.rank == FLAG:
            return replace(state, phase="over", winner=seat, reason="flag")
        return state._settle()

    def _settle(self) -> StrategoState:
        """End the game when the seat to move cannot: it loses, or a draw if neither can."""
        seat = self.to_move
        if self.has_moves(seat):
            return self
        other = 1 - seat
        winner = other if self.has_moves(other) else None
        return replace(self, phase="over", winner=winner, reason="no_moves")

    def _outcome(self) -> str:
        if self.winner is None:
            return "a draw: neither army can move"
        how = "took the flag" if self.reason == "flag" else "won: the other army cannot move"
        return f"{_seat(self.winner)} {how}"

    # --- views -----------------------------------------------------------------------------
    def _view(self, viewer: int | None) -> dict[str, Any]:
        board, revealed = {}, []
        for index, piece in enumerate(self.cells):
            if piece is None:
                continue
            shown = viewer is None or piece.seat == viewer or piece.revealed
            board[square_name(index)] = [piece.seat, piece.rank if shown else None]
            if piece.revealed:
                revealed.append(square_name(index))
        return {
            "game": "stratego",
            "phase": self.phase,
            "turn": self.to_move if self.phase == "play" else None,
            "ready": list(self.ready),
            "board": board,
            "revealed": revealed,
            "captured": [sorted(c, key=PIECES.index) for c in self.captured],
            "last_move": None if self.last_move is None else _move_json(self.last_move),
            "last_fight": None if self.last_fight is None else self.last_fight.to_json(),
            "moves": self.moves,
            "winner": self.winner,
            "reason": self.reason,
            "draw": self.phase == "over" and self.winner is None,
        }


def _move_json(move: Move) -> dict[str, Any]:
    return {"seat": move.seat, "from": square_name(move.frm), "to": square_name(move.to)}


def position(
    game: StrategoGame, pieces: Mapping[str, tuple[int, str]], to_move: int = 0
) -> StrategoState:
    """A state in play from {"e4": (seat, piece), ...}: for tests and puzzles, not for records."""
    cells: list[Piece | None] = [None] * (SIZE * SIZE)
    for name, (seat, rank) in pieces.items():
        index = parse_square(name)
        if index is None or index in LAKES or rank not in PIECES:
            raise ValueError(f"bad square or piece: {name}={rank!r}")
        cells[index] = Piece(seat, rank)
    state = StrategoState(game=game, cells=tuple(cells), ready=(True, True))
    return replace(state, phase="play", to_move=to_move)._settle()


@register
class StrategoGame(Game):
    name = "stratego"
    titles = {"fr": "Stratego", "en": "Stratego"}
    min_players = 2
    max_players = 2
    options_spec = {
        "two_square_limit": Option(
            5, choices=(5, 3), help="moves in a row allowed between the same two squares"
        ),
        "scout_strike": Option(
            False, choices=(False, True), help="a scout may attack at the end of a long move"
        ),
    }
    actions = {"setup": Setup, "move": Move}

    def initial_state(self) -> StrategoState:
        return StrategoState(game=self)
