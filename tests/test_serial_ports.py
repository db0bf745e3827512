"""Finding the Pico: a named path, a /dev/serial/by-id/ name, or USB vendor id 2E8A."""

from types import SimpleNamespace

from serial.tools import list_ports

from firmware_bridge.ports import find_port, why_not_found


def by_id(tmp_path, *names):
    folder = tmp_path / "by-id"
    folder.mkdir()
    for name in names:
        (folder / name).write_text("")
    return str(folder)


def test_the_by_id_name_of_a_micropython_board_is_preferred(tmp_path, monkeypatch):
    folder = by_id(
        tmp_path, "usb-FTDI_FT232R_A1-if00-port0", "usb-MicroPython_Board_in_FS_mode_e6614-if00"
    )
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert find_port("auto", folder).endswith("usb-MicroPython_Board_in_FS_mode_e6614-if00")


def test_without_a_by_id_name_the_vendor_id_finds_it(tmp_path, monkeypatch):
    folder = by_id(tmp_path, "usb-FTDI_FT232R_A1-if00-port0")
    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403),
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A),
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert find_port("auto", folder) == "/dev/ttyACM1"
    ports.pop()
    assert find_port("auto", folder) is None
    fr, en = why_not_found("auto", folder)
    assert "usb-FTDI_FT232R_A1-if00-port0" in en and "2E8A" in fr


def test_a_named_port_is_used_only_when_it_exists(tmp_path):
    device = tmp_path / "ttyACM0"
    assert find_port(str(device)) is None
    assert why_not_found(str(device))[1] == f"{device} does not exist"
    device.write_text("")
    assert find_port(str(device)) == str(device)
    assert find_port("none") is None
