"""Writes the Stratego record files of this folder (setups are 40 squares long: not by hand).

Run from the repository root: `.venv/bin/python tests/records/stratego/make_records.py`.
Every expectation below is written by hand from the rules, except the bot game's, which pins a
whole seeded game as it was played when the file was made (a golden playthrough).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.bots import bot  # noqa: E402
from engine.record import dumps  # noqa: E402
from engine.registry import new_game  # noqa: E402
from engine.stratego_pieces import COUNTS  # noqa: E402

HERE = Path(__file__).parent
HEADER = {"game": "stratego", "players": ["Rouge", "Bleu"]}


def army() -> list[str]:
    return [p for p, n in COUNTS.items() for _ in range(n)]


def setup(seat: int, placed: dict[str, str]) -> dict:
    """The given squares, then the rest of the army in order on the seat's other squares."""
    ranks = range(1, 5) if seat == 0 else range(10, 6, -1)
    squares = [f"{f}{r}" for r in ranks for f in "abcdefghij"]
    rest = army()
    for piece in placed.values():
        rest.remove(piece)
    free = [s for s in squares if s not in placed]
    return {"act": "setup", "seat": seat, "squares": placed | dict(zip(free, rest, strict=True))}


def move(seat: int, frm: str, to: str) -> dict:
    return {"act": "move", "seat": seat, "from": frm, "to": to}


FRONT_RED = dict(zip("abcdefghij", ["5", "2", "3", "4", "2", "6", "3", "4", "2", "7"], strict=True))
FRONT_BLUE = dict(
    zip("abcdefghij", ["4", "3", "2", "5", "6", "2", "7", "3", "2", "8"], strict=True)
)
RED = setup(0, {f"{f}4": p for f, p in FRONT_RED.items()})
BLUE = setup(1, {f"{f}7": p for f, p in FRONT_BLUE.items()})
# Rank 4 (or 7) holds every bomb and the flag where the middle is open, scouts behind the lakes.
WALL = ["B", "B", "2", "2", "B", "B", "2", "2", "B", "F"]
RED_WALLED = setup(0, {f"{f}4": p for f, p in zip("abcdefghij", WALL, strict=True)})
BLUE_WALLED = setup(1, {f"{f}7": p for f, p in zip("abcdefghij", WALL, strict=True)})


def write(name: str, lines: list[dict], expect: dict, header: dict | None = None) -> None:
    rows = [header or HEADER, *lines]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
    (HERE / f"{name}.expect.json").write_text(json.dumps(expect, indent=1) + "\n", "utf-8")


def shuttle(limit: int) -> list[dict]:
    """Red's e4 piece and blue's a7 piece go back and forth, red one move too many."""
    out = []
    for n in range(limit + 1):
        out.append(move(0, *(("e4", "e5") if n % 2 == 0 else ("e5", "e4"))))
        if n < limit:
            out.append(move(1, *(("a7", "a6") if n % 2 == 0 else ("a6", "a7"))))
    return out


def hand_written() -> None:
    flag_blue = setup(1, {"e7": "F", "d7": "B", "a7": "5"})
    write(
        "flag_taken_by_a_scout",
        [RED, flag_blue, move(0, "e4", "e6"), move(1, "a7", "a6"), move(0, "e6", "e7")],
        {
            "state": {
                "phase": "over",
                "winner": 0,
                "reason": "flag",
                "draw": False,
                "turn": None,
                "captured": [[], ["F"]],
                "last_fight": {
                    "from": "e6",
                    "to": "e7",
                    "attacker": [0, "2"],
                    "defender": [1, "F"],
                    "result": "attacker",
                },
            }
        },
    )
    write(
        "fight_seen_by_blue",
        [RED, BLUE, move(0, "a4", "a5"), move(1, "a7", "a6"), move(0, "a5", "a6")],
        {
            "seat": 1,
            "state": {
                "phase": "play",
                "turn": 1,
                "revealed": ["a6"],
                "captured": [[], ["4"]],
                "last_move": {"seat": 0, "from": "a5", "to": "a6"},
                "last_fight": {
                    "from": "a5",
                    "to": "a6",
                    "attacker": [0, "5"],
                    "defender": [1, "4"],
                    "result": "attacker",
                },
                "moves": 3,
            },
        },
    )
    write(
        "scout_long_move_shows_it",
        [RED, BLUE, move(0, "e4", "e6")],
        {"seat": 1, "state": {"revealed": ["e6"], "last_fight": None, "turn": 1}},
    )
    write(
        "draw_when_neither_army_can_move",
        [RED_WALLED, BLUE_WALLED],
        {
            "state": {
                "phase": "over",
                "winner": None,
                "reason": "no_moves",
                "draw": True,
                "turn": None,
            }
        },
    )
    write(
        "walled_red_loses_at_once",
        [BLUE, RED_WALLED],
        {"state": {"phase": "over", "winner": 1, "reason": "no_moves", "draw": False}},
    )
    write(
        "two_square_rule_fifth_move_allowed",
        [RED, BLUE, *shuttle(5)[:-1]],
        {"state": {"phase": "play", "turn": 0, "moves": 10}},
    )
    write(
        "error_two_square_rule_at_5",
        [RED, BLUE, *shuttle(5)],
        {"error_line": 14, "error_contains": "more than 5 times in a row between"},
    )
    write(
        "error_two_square_rule_at_3",
        [RED, BLUE, *shuttle(3)],
        {"error_line": 10, "error_contains": "more than 3 times in a row between"},
        header={**HEADER, "options": {"two_square_limit": 3}},
    )
    wrong_rank = setup(0, {f"{f}4": p for f, p in FRONT_RED.items()})
    wrong_rank["squares"]["a5"] = wrong_rank["squares"].pop("a4")
    write(
        "error_setup_on_a_wrong_rank",
        [wrong_rank],
        {"error_line": 2, "error_contains": "red (seat 0) sets up on ranks 1-4, not on a5"},
    )
    wrong_count = json.loads(json.dumps(RED))
    wrong_count["squares"]["a4"] = "10"
    write(
        "error_setup_with_wrong_counts",
        [BLUE, wrong_count],
        {"error_line": 3, "error_contains": '3 "5" (expected 4), 2 "10" (expected 1)'},
    )
    bad_square = json.loads(json.dumps(RED))
    bad_square["squares"]["k1"] = bad_square["squares"].pop("a1")
    write(
        "error_setup_bad_square",
        [bad_square],
        {"error_line": 2, "error_contains": 'setup squares must be a1..j10, not "k1"'},
    )
    write(
        "error_move_before_both_setups",
        [RED, move(0, "a4", "a5")],
        {"error_line": 3, "error_contains": "waiting for blue (seat 1)"},
    )
    write(
        "error_blue_moves_first",
        [RED, BLUE, move(1, "a7", "a6")],
        {"error_line": 4, "error_contains": "it is red (seat 0)'s turn"},
    )
    write(
        "error_into_a_lake",
        [RED, BLUE, move(0, "c4", "c5")],
        {"error_line": 4, "error_contains": "c5 is a lake"},
    )
    write(
        "error_scout_path_blocked",
        [RED, BLUE, move(0, "b4", "b2")],
        {"error_line": 4, "error_contains": "b4-b2 is blocked at b3"},
    )
    write(
        "error_scout_strikes_after_a_long_move",
        [RED, BLUE, move(0, "i4", "i7")],
        {"error_line": 4, "error_contains": "may not attack on the same move"},
    )
    write(
        "scout_strike_option",
        [RED, BLUE, move(0, "i4", "i7")],
        {
            "state": {
                "last_fight": {
                    "from": "i4",
                    "to": "i7",
                    "attacker": [0, "2"],
                    "defender": [1, "2"],
                    "result": "none",
                },
                "captured": [["2"], ["2"]],
            }
        },
        header={**HEADER, "options": {"scout_strike": True}},
    )
    write(
        "error_bomb_never_moves",
        [setup(0, {"a4": "B"}), BLUE, move(0, "a4", "a5")],
        {"error_line": 4, "error_contains": "the bomb on a4 never moves"},
    )


def bot_game() -> None:
    """A whole seeded game, greedy (red) against random (blue)."""
    game = new_game(HEADER)
    rng, bots = random.Random(2024), [bot("stratego", "greedy"), bot("stratego", "random")]
    state, actions = game.initial_state(), []
    while not state.is_over():
        seat = state.turn()[0]
        actions.append(bots[seat].act(state, seat, rng))
        state = state.apply(actions[-1])
    (HERE / "bot_game_greedy_random.jsonl").write_text(dumps(game, actions), encoding="utf-8")
    keys = ("phase", "winner", "reason", "moves", "captured", "last_move", "last_fight")
    expect = {"state": {k: state.view()[k] for k in keys}}
    (HERE / "bot_game_greedy_random.expect.json").write_text(
        json.dumps(expect, indent=1) + "\n", "utf-8"
    )


if __name__ == "__main__":
    hand_written()
    bot_game()
