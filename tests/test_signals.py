"""The Signals interface: whole-state signals, the seat LED rule, and make_signals' choice."""

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge import ButtonPress, MultiSignals, NullSignals, TableSignal, make_signals
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.factory import is_raspberry_pi
from firmware_bridge.gpio import GpioSignals
from firmware_bridge.link import LinkTiming
from firmware_bridge.ring import RingSignals, parse_role, press_for
from firmware_bridge.signals import AMBER, RED, Pattern, hex_rgb, seat_pattern
from kiosk.config import SEAT_COLOURS, load_config

FAST = LinkTiming(heartbeat=0.1, timeout=0.5, handshake=0.5, backoff_min=0.05, backoff_max=0.2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "blinking"}, "mode must be one of"),
        ({"mode": "turn", "seat": 4, "seats": 4}, "seat must be a seat 0..3"),
        ({"mode": "turn", "seats": 9}, "seats must be 0..8"),
        ({"mode": "turn", "seats": 2, "out": (2,)}, "out must be a seat 0..1"),
    ],
)
def test_a_bad_signal_says_what_was_expected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TableSignal(**kwargs)


def test_signals_are_values_whatever_the_order_of_their_sets():
    assert TableSignal("turn", 0, 4, out=(3, 1)) == TableSignal("turn", 0, 4, out=(1, 3, 1))


def test_a_press_names_a_seat_only_for_stop():
    with pytest.raises(ValueError, match="names its seat"):
        ButtonPress("stop")
    with pytest.raises(ValueError, match="names its seat"):
        ButtonPress("undo", 1)
    with pytest.raises(ValueError, match="one of stop, confirm, undo"):
        ButtonPress("pause")


def own(seat):
    return hex_rgb(SEAT_COLOURS[seat])


@pytest.mark.parametrize(
    "signal, seat, effect",
    [
        (TableSignal("turn", 1, 3), 1, "on"),
        (TableSignal("waiting_throw", 1, 3), 1, "pulse"),
        (TableSignal("seat_takes", 2, 3), 2, "fast"),
        (TableSignal("grand_throw", 0, 3), 0, "fast"),
        (TableSignal("grand_throw", 0, 3), 2, "pulse"),
        (TableSignal("game_over", None, 3, highlight=(1,)), 1, "pulse"),
        (TableSignal("game_over", None, 3, highlight=(1,)), 0, "off"),
        (TableSignal("turn", 0, 3, out=(2,)), 2, "off"),
        (TableSignal("off"), 0, "off"),
    ],
)
def test_seat_pattern_effects(signal, seat, effect):
    assert seat_pattern(signal, seat, SEAT_COLOURS).effect == effect


def test_seat_pattern_colours():
    assert seat_pattern(TableSignal("turn", 1, 3), 1, SEAT_COLOURS) == Pattern("on", own(1))
    assert seat_pattern(TableSignal("check", 0, 3), 2, SEAT_COLOURS) == Pattern("blink", AMBER)
    assert seat_pattern(TableSignal("seat_out", 2, 3), 2, SEAT_COLOURS) == Pattern("blink", RED)
    # the grand throw paints every seat still in play in the thrower's colour
    assert seat_pattern(TableSignal("grand_throw", 0, 3), 1, SEAT_COLOURS).colour == own(0)


def test_no_seat_named_means_every_seat_in_play_may_act():
    signal = TableSignal("waiting_throw", seats=3, out=(1,))
    effects = [seat_pattern(signal, s, SEAT_COLOURS).effect for s in range(3)]
    assert effects == ["pulse", "off", "pulse"]
    assert seat_pattern(TableSignal("turn", seats=2), 1, SEAT_COLOURS) == Pattern("on", own(1))


def test_game_over_without_named_winners_celebrates_everyone_still_in():
    signal = TableSignal("game_over", None, 3, out=(0,))
    assert [seat_pattern(signal, s, SEAT_COLOURS).effect for s in range(3)] == [
        "off",
        "pulse",
        "pulse",
    ]


@pytest.mark.parametrize(
    "role, kind, expected",
    [
        ("stop:3", 0, ButtonPress("stop", 3, "ring")),
        ("stop:3", 2, None),
        ("confirm", 0, ButtonPress("confirm", None, "ring")),
        ("table", 0, None),
        ("table", 2, ButtonPress("confirm", None, "ring")),
        ("table", 1, ButtonPress("undo", None, "ring")),
    ],
)
def test_what_a_ring_button_event_means(role, kind, expected):
    assert press_for(role, kind) == expected


def test_a_bad_ring_button_role_is_refused():
    with pytest.raises(ValueError, match="stop:N, confirm, undo, table"):
        parse_role("stop:x")


def test_multi_signals_show_on_every_part_and_gather_presses():
    presses = []
    a, b = NullSignals(), NullSignals()
    multi = MultiSignals([a, b], on_press=presses.append)
    multi.show(TableSignal("turn", 0, 2))
    assert a.last == b.last == TableSignal("turn", 0, 2)
    b.press(ButtonPress("confirm"))
    assert presses == [ButtonPress("confirm")]
    multi.close()
    b.press(ButtonPress("undo"))
    assert presses == [ButtonPress("confirm")]


def test_no_pins_and_no_serial_make_null_signals():
    signals = make_signals(load_config(serial_port="none"))
    assert isinstance(signals, NullSignals)
    signals.show(TableSignal("turn", 0, 2))  # works, shows nothing


def test_auto_serial_with_no_device_found_makes_no_ring():
    signals = make_signals(load_config(), port_finder=lambda: None)
    assert isinstance(signals, NullSignals)


def test_pins_make_gpio_signals_on_the_given_factory():
    factory = MockFactory(pin_class=MockPWMPin)
    config = load_config(serial_port="none", seat_led_pins=[[17]], seat_button_pins=[27])
    presses = []
    signals = make_signals(config, presses.append, pin_factory=factory)
    try:
        assert isinstance(signals, GpioSignals)
        signals.show(TableSignal("turn", 0, 1))
        assert factory.pin(17).state == 1
        factory.pin(27).drive_low()
        assert presses == [ButtonPress("stop", 0, "gpio")]
    finally:
        signals.close()
        factory.reset()


def test_off_a_pi_the_default_pins_are_mock_pins():
    if is_raspberry_pi():
        pytest.skip("on a Pi the default is the real pins")
    signals = make_signals(load_config(serial_port="none", seat_led_pins=[[17]]))
    try:
        signals.show(TableSignal("turn", 0, 1))
        assert signals.leds[0].value == 1
        assert "Mock" in type(signals.leds[0].pin_factory).__name__
    finally:
        signals.close()


def test_pins_and_a_found_device_make_both():
    factory = MockFactory(pin_class=MockPWMPin)
    with EmulatedDevice() as device:
        config = load_config(seat_led_pins=[[17]])
        presses = []
        signals = make_signals(
            config,
            presses.append,
            pin_factory=factory,
            port_finder=lambda: device.port,
            timing=FAST,
        )
        try:
            assert isinstance(signals, MultiSignals)
            assert [type(p) for p in signals.parts] == [GpioSignals, RingSignals]
            assert signals.parts[1].link.connected.wait(2)
            device.press(1)
            signals.show(TableSignal("turn", 0, 2))
            assert factory.pin(17).state == 1
            deadline = time.monotonic() + 2
            while not presses and time.monotonic() < deadline:
                time.sleep(0.01)
            assert presses == [ButtonPress("stop", 1, "ring")]
            assert signals.status()["parts"][1]["connected"] is True
        finally:
            signals.close()
            factory.reset()
