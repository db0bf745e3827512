"""Seat LEDs and buttons on mock pins (gpiozero MockFactory with PWM pins): the same code as on a Pi."""

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge import gpio
from firmware_bridge.gpio import GpioSignals
from firmware_bridge.signals import ButtonPress, TableSignal, hex_rgb

COLOURS = ["#ff0000", "#0000ff", "#00ff00"]
LEDS = [[2, 3, 4], [5, 6, 7], [8]]  # two RGB LEDs, one plain LED


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


@pytest.fixture
def board(factory):
    presses = []
    signals = GpioSignals(
        LEDS,
        COLOURS,
        button_pins=[20, 21, 22],
        table_pin=23,
        hold_time=0.15,
        bounce_time=0.03,
        on_press=presses.append,
        pin_factory=factory,
    )
    yield signals, presses, factory
    signals.close()


def rgb_state(factory, pins):
    return tuple(round(factory.pin(p).state, 3) for p in pins)


def test_the_turn_seat_is_lit_in_its_colour_and_the_others_dim(board):
    signals, _, factory = board
    signals.show(TableSignal("turn", seat=0, seats=3))
    assert rgb_state(factory, [2, 3, 4]) == (1.0, 0.0, 0.0)
    assert rgb_state(factory, [5, 6, 7]) == (0.0, 0.0, 0.1)
    assert rgb_state(factory, [8]) == (0.1,)
    signals.show(TableSignal("turn", seat=1, seats=3))
    assert rgb_state(factory, [2, 3, 4]) == (0.1, 0.0, 0.0)
    assert rgb_state(factory, [5, 6, 7]) == (0.0, 0.0, 1.0)


def test_a_seat_out_is_dark_and_off_turns_everything_off(board):
    signals, _, factory = board
    signals.show(TableSignal("turn", seat=0, seats=3, out=(1,)))
    assert rgb_state(factory, [5, 6, 7]) == (0.0, 0.0, 0.0)
    signals.show(TableSignal("off"))
    assert all(factory.pin(p).state == 0 for p in [2, 3, 4, 5, 6, 7, 8])


def test_a_seat_beyond_the_players_stays_dark(board):
    signals, _, factory = board
    signals.show(TableSignal("turn", seat=0, seats=2))
    assert factory.pin(8).state == 0


def test_check_blinks_every_led_amber(board, monkeypatch):
    monkeypatch.setattr(gpio, "BLINK_S", 0.02)
    signals, _, factory = board
    signals.show(TableSignal("check", seat=0, seats=3))
    time.sleep(0.3)
    red = [s.state for s in factory.pin(2).states]
    green = [round(s.state, 2) for s in factory.pin(3).states]
    assert red.count(1.0) >= 2 and red.count(0.0) >= 2  # on, off, on...
    assert 0.6 in green


def test_showing_the_same_signal_again_leaves_a_blink_alone(board, monkeypatch):
    signals, _, _ = board
    calls = []
    real = gpio._apply
    monkeypatch.setattr(
        gpio, "_apply", lambda led, pattern: (calls.append(pattern), real(led, pattern))
    )
    signal = TableSignal("waiting_throw", seat=2, seats=3)
    signals.show(signal)
    first = len(calls)
    signals.show(signal)
    signals.show(TableSignal("waiting_throw", seat=2, seats=3))
    assert first == 3 and len(calls) == 3


def test_a_stop_button_press_becomes_a_stop_for_its_seat(board):
    _, presses, factory = board
    factory.pin(21).drive_low()
    factory.pin(21).drive_high()
    assert presses == [ButtonPress("stop", 1, source="gpio")]


def test_a_bounce_within_the_bounce_time_is_one_press(board):
    _, presses, factory = board
    for _ in range(3):
        factory.pin(20).drive_low()
        factory.pin(20).drive_high()
    time.sleep(0.05)
    factory.pin(20).drive_low()
    assert presses == [ButtonPress("stop", 0, source="gpio")] * 2


def test_the_table_button_confirms_on_a_short_press_and_undoes_when_held(board):
    _, presses, factory = board
    table = factory.pin(23)
    table.drive_low()
    assert presses == []  # a short press is known only at release
    table.drive_high()
    assert presses == [ButtonPress("confirm", source="gpio")]
    time.sleep(0.05)
    table.drive_low()
    time.sleep(0.35)
    table.drive_high()
    assert presses[1:] == [ButtonPress("undo", source="gpio")]


def test_with_an_undo_button_the_table_button_confirms_at_once(factory):
    presses = []
    signals = GpioSignals(
        [],
        [],
        table_pin=23,
        undo_pin=24,
        hold_time=0.05,
        on_press=presses.append,
        pin_factory=factory,
    )
    factory.pin(23).drive_low()
    factory.pin(24).drive_low()
    assert [p.kind for p in presses] == ["confirm", "undo"]
    signals.close()


def test_a_led_with_two_pins_is_refused_and_its_pins_released(factory):
    with pytest.raises(ValueError, match=r"\[r, g, b\] or \[pin\]"):
        GpioSignals([[2, 3, 4], [5, 6]], COLOURS, pin_factory=factory)
    GpioSignals([[2, 3, 4]], COLOURS, pin_factory=factory).close()  # the pins were freed


def test_common_anode_leds_are_driven_inverted(factory):
    signals = GpioSignals([[2, 3, 4]], COLOURS, active_high=False, pin_factory=factory)
    signals.show(TableSignal("turn", seat=0, seats=1))
    assert rgb_state(factory, [2, 3, 4]) == (0.0, 1.0, 1.0)
    signals.close()


def test_hex_colours():
    assert hex_rgb("#ff8000") == (1.0, 128 / 255, 0.0)
    with pytest.raises(ValueError, match="#rrggbb"):
        hex_rgb("orange")
