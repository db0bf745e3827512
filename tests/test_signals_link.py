"""The table's lights follow its state, and a button press reaches the table like a tap."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge import ButtonPress, TableSignal
from firmware_bridge.gpio import GpioSignals
from kiosk.config import load_config
from kiosk.signals_link import follow_table, press_to_table, signal_for
from kiosk.table import Table


class Recorder:
    def __init__(self) -> None:
        self.shown: list[TableSignal] = []

    def show(self, signal: TableSignal) -> None:
        self.shown.append(signal)


@pytest.fixture
def table(tmp_path):
    t = Table(load_config(None, data_dir=str(tmp_path)))
    yield t
    t.log.close()


def test_no_game_is_lights_off(table):
    assert signal_for(table) == TableSignal("off")


def test_strike_turns_grand_throw_and_game_over(table):
    lights = Recorder()
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    follow_table(table, lights)
    assert lights.shown[-1].mode == "waiting_throw" and lights.shown[-1].seat is None
    table.submit({"act": "start", "arena": [4]})
    assert lights.shown[-1] == TableSignal("waiting_throw", seat=0, seats=2)
    table.submit({"act": "throw", "seat": 0, "arena": [4, 5]})
    assert lights.shown[-1] == TableSignal("turn", seat=0, seats=2)  # stop or go on
    table.submit({"act": "throw", "seat": 0, "arena": [4, 4, 5]})
    assert lights.shown[-1] == TableSignal("waiting_throw", seat=1, seats=2)
    table.submit({"act": "throw", "seat": 1, "arena": [5, 5]})
    assert lights.shown[-1] == TableSignal("grand_throw", seat=0, seats=2)
    table.submit({"act": "throw", "seat": 0, "arena": [2, 3, 4, 5, 6]})
    assert lights.shown[-1] == TableSignal("game_over", seats=2, out=(0,), highlight=(1,))


def test_a_check_shows_on_the_lights(table):
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    table.propose({"act": "start", "arena": [4]}, ["low_confidence"], None, [])
    assert signal_for(table).mode == "check"


def test_stop_button_and_table_button(table):
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    table.submit({"act": "start", "arena": [4]})
    table.submit({"act": "throw", "seat": 0, "arena": [4, 5]})
    press_to_table(table, ButtonPress("stop", seat=1))  # not seat 1's turn: refused, no crash
    assert table.state.turn() == (0,)
    press_to_table(table, ButtonPress("stop", seat=0))
    assert table.state.turn() == (1,)
    check = table.propose({"act": "throw", "seat": 1, "arena": [4, 5, 6]}, ["x"], None, [])
    press_to_table(table, ButtonPress("confirm"))
    assert table.pending is None and table.state.view()["arena"] == [4, 5, 6]
    assert check.id >= 1


def test_seat_leds_on_mock_pins_follow_the_turn(table):
    factory = MockFactory(pin_class=MockPWMPin)
    leds = GpioSignals(
        led_pins=[[17, 27, 22], [5, 6, 13]],
        colours=table.config.seat_colours,
        pin_factory=factory,
    )
    try:
        table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
        follow_table(table, leds)
        table.submit({"act": "roll", "dice": [3, 4]})
        lit = [any(factory.pin(p).state > 0 for p in pins) for pins in ([17, 27, 22], [5, 6, 13])]
        assert lit == [True, True]  # both seats must write
        table.submit({"act": "place", "seat": 0, "cell": [0, 0]})
        assert leds.last.mode == "turn" and leds.last.seat == 1
    finally:
        leds.close()
