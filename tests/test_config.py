"""The one config file: defaults, tables, and errors that say what was expected."""

import pytest

from kiosk.config import SEAT_COLOURS, Config, load_config


def write(tmp_path, text):
    path = tmp_path / "arbitre.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_work_off_a_pi():
    config = load_config()
    assert config.serial_port == "auto" and config.gpio == "auto"
    assert config.seat_led_pins == [] and config.seat_colours == SEAT_COLOURS
    assert config.ring_buttons[-1] == "table"


def test_the_example_file_loads_and_matches_the_defaults():
    assert load_config("arbitre.example.toml") == Config()


def test_settings_may_sit_in_tables_or_at_the_top(tmp_path):
    path = write(tmp_path, "port = 9000\n[pins]\nseat_led_pins = [[5, 6, 13], [19]]\n")
    config = load_config(path)
    assert config.port == 9000 and config.seat_led_pins == [[5, 6, 13], [19]]


def test_overrides_win_and_none_leaves_the_file_value(tmp_path):
    path = write(tmp_path, "port = 9000\n")
    assert load_config(path, port=None).port == 9000
    assert load_config(path, port=8080).port == 8080


@pytest.mark.parametrize(
    "text, message",
    [
        ("prot = 1\n", "unknown setting 'prot'"),
        ("[pinz]\nx = 1\n", r"unknown table \[pinz\]"),
        ("port = 1\n[kiosk]\nport = 2\n", "'port' is set twice"),
        ('port = "8000"\n', "port must be a whole number"),
        ("seat_led_pins = [5, 6]\n", "seat_led_pins must be a list of a list of a whole number"),
        ("seat_led_pins = [[5, 6]]\n", r"\[r, g, b\] or \[pin\]"),
        ("seat_button_pins = [17, 40]\n", "BCM numbers 0..27, not 40"),
        ("seat_button_pins = [17]\ntable_button_pin = 17\n", "GPIO 17 is used twice"),
        ('seat_colours = ["red"]\n', "#rrggbb, not 'red'"),
        ("ring_brightness = 2\n", "ring_brightness must be 0..1"),
        ('ring_buttons = ["stop"]\n', "stop:N, confirm, undo or table, not 'stop'"),
        ('gpio = "real"\n', "gpio must be one of auto, mock, none"),
        ("led_active_high = 1\n", "led_active_high must be true or false"),
        ('table_button_pin = "x"\n', r"a whole number \(or left out\)"),
    ],
)
def test_a_mistake_is_named_with_the_file(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=message) as err:
        load_config(path)
    assert str(path) in str(err.value)


def test_a_bad_override_is_refused_too():
    with pytest.raises(ValueError, match="ring_brightness"):
        load_config(ring_brightness=-1)


def test_a_whole_number_is_a_good_float():
    assert load_config(button_hold_seconds=2).button_hold_seconds == 2
