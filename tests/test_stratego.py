"""Stratego rules: fights, scout moves, lakes, the two-square rule, setups, flag, no move, draw."""

from __future__ import annotations

import pytest

from engine.core import BadRecord, IllegalAction
from engine.stratego import Move, Setup, StrategoGame, position
from engine.stratego_board import LAKES, RAYS, line_between, parse_square, square_name
from engine.stratego_pieces import ARMY_SIZE, fight

sq = parse_square


def game(**options) -> StrategoGame:
    return StrategoGame(["Rouge", "Bleu"], options)


def mv(seat: int, frm: str, to: str) -> Move:
    return Move(seat, sq(frm), sq(to))


# Two armies far apart: each has a flag in a corner and whatever a test adds.
CORNERS = {"a1": (0, "F"), "j10": (1, "F")}


def pos(pieces: dict, to_move: int = 0, **options):
    return position(game(**options), {**CORNERS, **pieces}, to_move)


def army_setup(seat: int, pieces: dict[str, str] | None = None) -> dict[str, str]:
    """A legal setup: the given squares, the rest of the army in order on the other squares."""
    from engine.stratego_bots import army

    ranks = range(1, 5) if seat == 0 else range(7, 11)
    squares = [f"{f}{r}" for r in ranks for f in "abcdefghij"]
    placed = dict(pieces or {})
    rest = army()
    for piece in placed.values():
        rest.remove(piece)
    free = [s for s in squares if s not in placed]
    return placed | dict(zip(free, rest, strict=True))


# --- fights -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attacker", "defender", "result"),
    [
        ("7", "5", "attacker"),
        ("5", "7", "defender"),
        ("10", "9", "attacker"),
        ("6", "6", "none"),
        ("2", "2", "none"),
        ("S", "10", "attacker"),  # the spy takes the marshal when it strikes first
        ("10", "S", "attacker"),  # ... and falls when the marshal strikes
        ("S", "9", "defender"),  # the spy beats nobody else
        ("S", "2", "defender"),
        ("2", "S", "attacker"),
        ("S", "S", "none"),
        ("3", "B", "attacker"),  # only a miner defuses a bomb
        ("10", "B", "defender"),
        ("2", "B", "defender"),
        ("S", "B", "defender"),
        ("2", "F", "attacker"),  # any piece takes the flag
        ("S", "F", "attacker"),
        ("10", "F", "attacker"),
        ("3", "4", "defender"),
    ],
)
def test_fight(attacker: str, defender: str, result: str) -> None:
    assert fight(attacker, defender) == result


def test_attacker_wins_moves_in_and_both_ranks_show() -> None:
    s = pos({"e4": (0, "7"), "e5": (1, "5"), "j9": (1, "4")}).apply(mv(0, "e4", "e5"))
    assert s.view(1)["board"]["e5"] == [0, "7"] and "e4" not in s.view(1)["board"]
    assert s.view(1)["last_fight"] == {
        "from": "e4",
        "to": "e5",
        "attacker": [0, "7"],
        "defender": [1, "5"],
        "result": "attacker",
    }
    assert s.public_view()["last_fight"]["defender"] == [1, "5"]
    assert s.view()["captured"] == [[], ["5"]] and s.public_view()["revealed"] == ["e5"]


def test_defender_wins_stays_and_is_revealed() -> None:
    s = pos({"e4": (0, "4"), "e5": (1, "8"), "a2": (0, "6")}).apply(mv(0, "e4", "e5"))
    assert s.public_view()["board"]["e5"] == [1, "8"] and "e4" not in s.view()["board"]
    assert s.view()["captured"] == [["4"], []] and s.turn() == (1,)


def test_equal_ranks_both_fall() -> None:
    s = pos({"e4": (0, "6"), "e5": (1, "6"), "a2": (0, "6"), "j9": (1, "6")})
    s = s.apply(mv(0, "e4", "e5"))
    assert "e5" not in s.view()["board"] and "e4" not in s.view()["board"]
    assert s.view()["captured"] == [["6"], ["6"]] and s.last_fight.result == "none"


def test_bomb_stays_after_killing_the_attacker() -> None:
    s = pos({"e4": (0, "9"), "e5": (1, "B"), "a2": (0, "6")}).apply(mv(0, "e4", "e5"))
    assert s.public_view()["board"]["e5"] == [1, "B"]
    s = pos({"e4": (0, "3"), "e5": (1, "B"), "a2": (0, "6")}).apply(mv(0, "e4", "e5"))
    assert s.public_view()["board"]["e5"] == [0, "3"]


def test_spy_takes_marshal_only_when_it_attacks() -> None:
    base = {"e4": (0, "S"), "e5": (1, "10"), "a2": (0, "6"), "j9": (1, "4")}
    assert pos(base).apply(mv(0, "e4", "e5")).view()["board"]["e5"] == [0, "S"]
    assert pos(base, to_move=1).apply(mv(1, "e5", "e4")).view()["board"]["e4"] == [1, "10"]


def test_flag_capture_wins() -> None:
    s = pos({"e4": (0, "2"), "e5": (1, "F"), "j10": (1, "B")}).apply(mv(0, "e4", "e5"))
    assert s.is_over() and s.winner == 0 and s.reason == "flag" and s.winners() == (0,)
    assert s.turn() == () and s.legal_actions() == []
    with pytest.raises(IllegalAction, match="red \\(seat 0\\) took the flag"):
        s.apply(mv(1, "j9", "j8"))


def test_bombs_and_flag_never_move() -> None:
    s = pos({"e4": (0, "B"), "a2": (0, "6")})
    with pytest.raises(IllegalAction, match="the bomb on e4 never moves"):
        s.apply(mv(0, "e4", "e5"))
    with pytest.raises(IllegalAction, match="the flag on a1 never moves"):
        s.apply(mv(0, "a1", "b1"))


# --- moving ------------------------------------------------------------------------------
def test_ordinary_piece_moves_one_square_orthogonally() -> None:
    s = pos({"e4": (0, "5")})
    targets = {square_name(t) for f, t in s.moves_of(0) if f == sq("e4")}
    assert targets == {"e3", "e5", "d4", "f4"}
    with pytest.raises(IllegalAction, match="only a scout moves more than one square"):
        s.apply(mv(0, "e4", "e6"))
    with pytest.raises(IllegalAction, match="straight along a file or a rank"):
        s.apply(mv(0, "e4", "f5"))


def test_no_piece_enters_a_lake() -> None:
    s = pos({"c4": (0, "5")})
    with pytest.raises(IllegalAction, match="c5 is a lake"):
        s.apply(mv(0, "c4", "c5"))
    assert sq("c5") not in {t for _, t in s.moves_of(0)}


def test_scout_runs_over_empty_squares_up_to_an_obstacle() -> None:
    s = pos({"e2": (0, "2"), "e8": (1, "5"), "b2": (0, "4")})
    up = {square_name(t) for f, t in s.moves_of(0) if f == sq("e2") and t % 10 == 4}
    assert up == {"e1", "e3", "e4", "e5", "e6", "e7"}  # e8 is an enemy six squares away
    sideways = {square_name(t) for f, t in s.moves_of(0) if f == sq("e2") and t // 10 == 1}
    assert sideways == {"c2", "d2", "f2", "g2", "h2", "i2", "j2"}  # b2 is red's own


def test_scout_path_blocked_and_lake_crossing() -> None:
    s = pos({"e2": (0, "2"), "e5": (0, "4"), "b5": (0, "2")})
    with pytest.raises(IllegalAction, match="blocked at e5"):
        s.apply(mv(0, "e2", "e7"))
    with pytest.raises(IllegalAction, match="crosses the lake at c5"):
        s.apply(mv(0, "b5", "e5"))
    assert sq("e5") not in {t for f, t in s.moves_of(0) if f == sq("e2")}


def test_own_square_and_no_piece_errors() -> None:
    s = pos({"e4": (0, "4"), "e5": (0, "5")})
    with pytest.raises(IllegalAction, match="e5 holds one of your own pieces"):
        s.apply(mv(0, "e4", "e5"))
    with pytest.raises(IllegalAction, match="there is no piece on d4"):
        s.apply(mv(0, "d4", "d5"))
    with pytest.raises(IllegalAction, match="the piece on j10 belongs to blue"):
        s.apply(mv(0, "j10", "j9"))
    with pytest.raises(IllegalAction, match="it is red \\(seat 0\\)'s turn"):
        s.apply(mv(1, "j10", "j9"))


def test_scout_strike_off_by_default_on_as_an_option() -> None:
    pieces = {"e2": (0, "2"), "e6": (1, "4"), "a2": (0, "4")}
    with pytest.raises(IllegalAction, match="may not attack on the same move"):
        pos(pieces).apply(mv(0, "e2", "e6"))
    assert sq("e6") not in {t for _, t in pos(pieces).moves_of(0)}
    s = pos(pieces, scout_strike=True).apply(mv(0, "e2", "e6"))
    assert s.last_fight.result == "defender" and s.public_view()["board"]["e6"] == [1, "4"]


def test_scout_attacks_an_adjacent_piece_by_default() -> None:
    s = pos({"e5": (0, "2"), "e6": (1, "S"), "a2": (0, "4")}).apply(mv(0, "e5", "e6"))
    assert s.public_view()["board"]["e6"] == [0, "2"]


def test_a_scouts_long_move_reveals_it() -> None:
    s = pos({"e2": (0, "2"), "e3": (0, "2"), "j9": (1, "4")})
    assert s.apply(mv(0, "e3", "e6")).public_view()["board"]["e6"] == [0, "2"]
    assert s.apply(mv(0, "e3", "e4")).public_view()["board"]["e4"] == [0, None]


# --- the two-square rule -----------------------------------------------------------------
def shuffle(limit: int):
    """Red shuffles e4-e5 while blue shuffles j8-j7; returns the state and red's moves made."""
    s = pos({"e4": (0, "5"), "a3": (0, "4"), "j8": (1, "5")}, two_square_limit=limit)
    red, blue = ("e4", "e5"), ("j8", "j7")
    for n in range(limit):
        s = s.apply(mv(0, red[n % 2], red[1 - n % 2])).apply(mv(1, blue[n % 2], blue[1 - n % 2]))
    return s


@pytest.mark.parametrize("limit", [5, 3])
def test_two_square_rule(limit: int) -> None:
    s = shuffle(limit)
    here = "e5" if limit % 2 else "e4"
    back = "e4" if limit % 2 else "e5"
    with pytest.raises(IllegalAction, match=f"more than {limit} times in a row"):
        s.apply(mv(0, here, back))
    assert (sq(here), sq(back)) not in set(s.moves_of(0))
    s.apply(mv(0, here, "f5" if here == "e5" else "f4"))  # another square is fine
    s.apply(mv(0, "a3", "a4"))  # and so is another piece


def test_two_square_count_restarts_after_another_move() -> None:
    s = shuffle(5)  # red on e5 after five moves between e4 and e5
    s = s.apply(mv(0, "a3", "a4")).apply(mv(1, "j7", "j6"))
    assert s.apply(mv(0, "e5", "e4")).repeats[0].count == 1


def test_limit_is_five_or_three() -> None:
    with pytest.raises(BadRecord, match="two_square_limit"):
        game(two_square_limit=4)
    assert game().options == {"two_square_limit": 5, "scout_strike": False}


# --- the end: no move, draw --------------------------------------------------------------
def test_a_seat_that_cannot_move_loses() -> None:
    s = pos({"e4": (0, "7"), "e5": (1, "5"), "j9": (1, "B")}).apply(mv(0, "e4", "e5"))
    assert s.is_over() and s.winner == 0 and s.reason == "no_moves" and not s.view()["draw"]


def test_neither_can_move_is_a_draw() -> None:
    s = pos({"e4": (0, "6"), "e5": (1, "6"), "a2": (0, "B")}).apply(mv(0, "e4", "e5"))
    assert s.is_over() and s.winner is None and s.reason == "no_moves"
    assert s.view()["draw"] is True and s.winners() == (0, 1)


def test_boxed_in_by_the_two_square_rule_counts_as_no_move() -> None:
    # Red's only mobile piece shuttles in a dead end a2-a3; blue has room. At the limit red loses.
    walls = {"a4": (0, "B"), "b2": (0, "B"), "b3": (0, "B"), "b1": (0, "B")}
    s = pos({"a2": (0, "5"), "j8": (1, "5"), **walls}, two_square_limit=3)
    red, blue = ("a2", "a3"), ("j8", "j7")
    for n in range(3):
        assert not s.is_over()
        s = s.apply(mv(0, red[n % 2], red[1 - n % 2])).apply(mv(1, blue[n % 2], blue[1 - n % 2]))
    assert s.is_over() and s.winner == 1 and s.reason == "no_moves"


def test_position_with_no_move_for_the_first_seat_is_over_at_once() -> None:
    s = pos({"a2": (0, "B"), "j9": (1, "4")})
    assert s.is_over() and s.winner == 1


# --- setup ---------------------------------------------------------------------------------
def test_setups_then_red_moves_first() -> None:
    s = game().initial_state()
    assert s.turn() == (0, 1) and s.legal_actions() == []
    s = s.apply(Setup.of(1, army_setup(1)))
    assert s.turn() == (0,) and s.phase == "setup"
    s = s.apply(Setup.of(0, army_setup(0)))
    assert s.phase == "play" and s.turn() == (0,)
    assert all(m.seat == 0 for m in s.legal_actions()) and s.legal_actions()
    assert len(s.view()["board"]) == 2 * ARMY_SIZE


def test_setup_on_the_wrong_ranks() -> None:
    squares = army_setup(0)
    squares["e5"] = squares.pop("e4")
    with pytest.raises(IllegalAction, match="red \\(seat 0\\) sets up on ranks 1-4, not on e5"):
        game().initial_state().apply(Setup.of(0, squares))
    with pytest.raises(IllegalAction, match="blue \\(seat 1\\) sets up on ranks 7-10"):
        game().initial_state().apply(Setup.of(1, army_setup(0)))


def test_setup_with_wrong_counts() -> None:
    squares = army_setup(0)
    squares[next(s for s, p in squares.items() if p == "2")] = "B"
    with pytest.raises(IllegalAction, match='7 "B" \\(expected 6\\), 7 "2" \\(expected 8\\)'):
        game().initial_state().apply(Setup.of(0, squares))
    short = dict(list(army_setup(0).items())[:39])
    with pytest.raises(IllegalAction, match="exactly its 40 pieces"):
        game().initial_state().apply(Setup.of(0, short))


@pytest.mark.parametrize(
    ("squares", "message"),
    [
        ({"k1": "F"}, 'a1..j10, not "k1"'),
        ({"a0": "F"}, 'a1..j10, not "a0"'),
        ({"a11": "F"}, 'a1..j10, not "a11"'),
        ({"a1": "11"}, "must be one of"),
        ({"a1": 2}, "must be one of"),
        ([["a1", "F"]], "an object"),
    ],
)
def test_setup_format_errors(squares, message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        game().parse_action({"act": "setup", "seat": 0, "squares": squares})


def test_setup_twice_and_moves_before_setup() -> None:
    s = game().initial_state().apply(Setup.of(0, army_setup(0)))
    with pytest.raises(IllegalAction, match="already set up"):
        s.apply(Setup.of(0, army_setup(0)))
    with pytest.raises(IllegalAction, match="waiting for blue \\(seat 1\\)"):
        s.apply(mv(0, "a4", "a5"))


def test_move_format_errors() -> None:
    with pytest.raises(BadRecord, match='"from" must be a square'):
        game().parse_action({"act": "move", "seat": 0, "from": "z9", "to": "e5"})
    with pytest.raises(BadRecord, match='needs a "to" field'):
        game().parse_action({"act": "move", "seat": 0, "from": "e4"})


def test_actions_round_trip_through_json() -> None:
    g = game()
    setup = Setup.of(0, army_setup(0))
    assert g.parse_action(setup.to_json()) == setup
    assert setup.to_json()["squares"]["a1"] == army_setup(0)["a1"]
    move = mv(1, "e7", "e6")
    assert move.to_json() == {"act": "move", "seat": 1, "from": "e7", "to": "e6"}
    assert g.parse_action(move.to_json()) == move


# --- the board -----------------------------------------------------------------------------
def test_board_geometry() -> None:
    assert {square_name(i) for i in LAKES} == {"c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"}
    assert [square_name(i) for i in line_between(sq("a1"), sq("a4"))] == ["a2", "a3"]
    assert line_between(sq("a1"), sq("b2")) is None
    assert all(sq(square_name(i)) == i for i in range(100))
    assert {len(r) for r in RAYS[sq("a1")]} == {9}
    assert sorted(len(r) for r in RAYS[sq("c4")]) == [2, 3, 7]  # the lake stops the ray north


def test_a_setup_built_in_python_is_checked_too() -> None:
    squares = tuple(Setup.of(0, army_setup(0)).squares)
    doubled = Setup(0, ((squares[1][0], "F"), *squares[1:]))
    with pytest.raises(IllegalAction, match="b1 given twice"):
        game().initial_state().apply(doubled)
    with pytest.raises(IllegalAction, match="a1 to j10"):
        pos({"e4": (0, "5")}).apply(Move(0, sq("e4"), 100))
