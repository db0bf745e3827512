"""`arbitre doctor`: each part found or not, and why; exit 1 only for what the config demands."""

import json

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge.emulator import EmulatedDevice
from kiosk.cli import main
from kiosk.commands import doctor
from kiosk.config import load_config

NO_PI_CAMERA = ([], ("pas de caméra du Pi", "no Pi camera"))


@pytest.fixture(autouse=True)
def no_pi_camera(monkeypatch):
    monkeypatch.setattr(doctor, "pi_cameras", lambda: NO_PI_CAMERA)


def write_config(tmp_path, text):
    path = tmp_path / "arbitre.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n' + text, encoding="utf-8")
    return str(path)


def test_a_table_with_its_pico_and_mock_pins_is_healthy(tmp_path, capsys):
    with EmulatedDevice() as device:
        config = write_config(
            tmp_path,
            f'camera = "sim"\nserial_port = "{device.port}"\ngpio = "mock"\n'
            "seat_led_pins = [[5, 6, 13]]\nseat_button_pins = [17]\n",
        )
        status = main(["doctor", "--config", config, "--json", "--lang", "en"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["serial"]["status"] == "ok"
    assert "firmware 1.0.0, 24 LEDs, 6 buttons" in report["serial"]["detail"]
    assert (
        report["pins"]["detail"].startswith("mock pins")
        and "1 LEDs, 1 buttons" in report["pins"]["detail"]
    )
    assert report["camera"]["status"] == "ok" and report["disk"]["status"] == "ok"
    assert report["vision"]["status"] == "ok"


def test_a_named_port_that_is_missing_fails_and_says_so(tmp_path, capsys):
    config = write_config(tmp_path, 'serial_port = "/dev/ttyACM9"\n')
    assert main(["doctor", "--config", config, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "✘ serial link" in out and "/dev/ttyACM9 does not exist" in out


def test_french_by_default(tmp_path, capsys):
    config = write_config(tmp_path, 'serial_port = "none"\n')
    assert main(["doctor", "--config", config]) == 0
    out = capsys.readouterr().out
    assert "liaison série" in out and "serial_port = none dans la config" in out


def test_an_unreadable_config_is_reported_and_defaults_used(tmp_path, capsys):
    config = write_config(tmp_path, "prot = 3\n")
    assert main(["doctor", "--config", config, "--lang", "en", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (
        report["config"]["status"] == "fail"
        and "unknown setting 'prot'" in report["config"]["detail"]
    )


def test_a_port_with_something_else_on_it_is_not_the_firmware(tmp_path):
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        config = load_config(serial_port=os.ttyname(slave))
        check = doctor.check_serial(config, timeout=0.3)
    finally:
        os.close(master)
        os.close(slave)
    assert check.status == "fail" and "not running the Arbitre firmware" in check.en


def test_a_pin_already_taken_is_named_with_a_hint():
    factory = MockFactory(pin_class=MockPWMPin)
    holder = LED(17, pin_factory=factory)  # something else holds GPIO17
    config = load_config(seat_led_pins=[[17]], serial_port="none")
    check = doctor.check_pins(config, pin_factory=factory, on_pi=True)
    holder.close()
    factory.reset()
    assert check.status == "fail" and "GPIO17" in check.en and "is arbitre running?" in check.en


def test_usb_webcams_are_found_and_the_pi_codecs_skipped(tmp_path):
    for index, name in [
        (0, "bcm2835-codec-decode"),
        (19, "pispbe-input"),
        (2, "HD Pro Webcam C920"),
    ]:
        node = tmp_path / f"video{index}"
        node.mkdir()
        (node / "name").write_text(name + "\n")
    assert doctor.usb_cameras(str(tmp_path)) == [(2, "HD Pro Webcam C920")]
    assert doctor.check_camera("auto", str(tmp_path)).status == "ok"
    assert doctor.check_camera("v4l2:2", str(tmp_path)).en.startswith("USB webcam /dev/video2")
    missing = doctor.check_camera("v4l2:5", str(tmp_path))
    assert missing.status == "fail" and "/dev/video2" in missing.en


def test_no_camera_at_all_means_the_simulator_not_a_failure(tmp_path):
    check = doctor.check_camera("auto", str(tmp_path))
    assert check.status == "info" and "simulated table" in check.en
    assert doctor.check_camera("picamera2", str(tmp_path)).status == "fail"


def test_a_nearly_full_disk_fails(tmp_path):
    check = doctor.check_disk(tmp_path / "not" / "yet", min_free_mb=10**12)
    assert check.status == "fail" and "needs" in check.en
    assert doctor.check_disk(tmp_path / "not" / "yet").status == "ok"


def test_the_dice_networks_are_read_by_this_opencv():
    import cv2

    check = doctor.check_vision()
    assert check.status == "ok", check.en
    assert f"OpenCV {cv2.__version__}" in check.en and "networks read" in check.en
    assert "réseaux lus" in check.fr


def test_an_opencv_that_cannot_read_a_network_fails_and_names_it(tmp_path):
    """As OpenCV 4.6 did with the float16 weights before they were widened on load."""
    import cv2

    from vision.learned import runtime

    for name in ("dice.onnx", "faces.onnx"):
        (tmp_path / name).write_bytes((runtime.MODELS / name).read_bytes())

    def refuse_faces(path):
        if path.name == "faces.onnx":
            raise cv2.error(
                "OpenCV(4.6.0) /io/opencv/modules/dnn/src/onnx/onnx_graph_simplifier.cpp:842:"
                " error: (-210:Unsupported format or combination of formats) Unsupported data"
                " type: FLOAT16 in function 'getMatFromTensor'"
            )
        return object()

    check = doctor.check_vision(tmp_path, refuse_faces)
    assert check.status == "fail"
    assert "cannot read faces.onnx (Unsupported data type: FLOAT16)" in check.en
    assert "ne lit pas faces.onnx" in check.fr and "onnx_graph_simplifier" not in check.en


def test_no_networks_is_the_classical_reader_not_a_failure(tmp_path):
    check = doctor.check_vision(tmp_path)
    assert check.status == "info" and "classical reader" in check.en


def test_a_garbled_network_file_is_reported_not_raised(tmp_path):
    from vision.learned import runtime

    data = (runtime.MODELS / "faces.onnx").read_bytes()
    (tmp_path / "faces.onnx").write_bytes(data[:5000] + b"\xff\xff\xff")
    check = doctor.check_vision(tmp_path)
    assert check.status == "fail" and "cannot read faces.onnx" in check.en


def test_the_calibration_run_will_read_is_checked(tmp_path, capsys):
    """None yet: said, with the command that makes one; dice under 18 px: said, with the fix;
    a garbled file (which `arbitre run` would silently read without): a failure."""
    config = write_config(tmp_path, 'serial_port = "none"\ncamera = "usb:0"\n')
    cal = tmp_path / "calibration.json"
    check = lambda: doctor.check_calibration(load_config(config))  # noqa: E731
    assert check().status == "info" and "arbitre calibrate" in check().fr
    cal.write_text('{"version": 1, "frame_size": [1280, 960], "arena": null, "die_size": 31.0}')
    assert check().status == "ok" and check().en == "1280x960, dice 31 px"
    cal.write_text('{"version": 1, "frame_size": [1280, 960], "arena": null, "die_size": 21.0}')
    assert check().status == "info" and "marques pâles" in check().fr
    cal.write_text('{"version": 1, "frame_size": [1280, 960], "arena": null, "die_size": 14.6}')
    assert check().status == "info" and "rapprochez la caméra" in check().fr
    cal.write_text("{not json")
    assert check().status == "fail" and "calibration.json" in check().en
    assert main(["doctor", "--config", config, "--lang", "en"]) == 1
    assert "✘ calibration" in capsys.readouterr().out


def test_a_calibration_path_with_a_tilde_is_one_path_for_every_command(
    tmp_path, monkeypatch, caplog
):
    """`arbitre calibrate` wrote "~/…" expanded and `arbitre run` looked for it as written; a
    file `run` cannot read is read without, and said in the log."""
    from kiosk.commands import run

    monkeypatch.setenv("HOME", str(tmp_path))
    config = load_config(write_config(tmp_path, 'calibration = "~/cal.json"\n'))
    assert config.calibration_path == tmp_path / "cal.json"
    (tmp_path / "cal.json").write_text(
        '{"version": 1, "frame_size": [640, 480], "arena": null, "die_size": 25.0}'
    )
    from vision import load_calibration

    assert run._calibration(config, load_calibration).die_size == 25.0
    (tmp_path / "cal.json").write_text("{not json")
    with caplog.at_level("WARNING"):
        assert run._calibration(config, load_calibration) is None
    assert "calibration not read" in caplog.text and "cal.json" in caplog.text
