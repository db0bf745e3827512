"""Frame sources: files, the spec parser, auto falling back to the simulated table, lost cameras."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import camera
from vision.camera import (
    Backoff,
    CameraError,
    FileSource,
    FrameSource,
    V4L2Source,
    open_camera,
)


def _image(value: int, size=(40, 30)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), value, np.uint8)
    img[5:10, 5:10] = (0, 0, 255)
    return img


def test_file_source_image_gives_the_same_frame_every_time(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), _image(90))
    with FileSource(path) as src:
        a, b = src.read(), src.read()
        assert isinstance(src, FrameSource)
        assert src.name == f"file:{path}"
    assert a.shape == (30, 40, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    a[:] = 0  # a caller that draws on its frame must not change the next one
    assert FileSource(path).read()[0, 0, 0] == 90


def test_folder_source_reads_images_in_name_order_and_loops(tmp_path):
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), _image(value))
    (tmp_path / "notes.txt").write_text("not an image")
    src = FileSource(tmp_path)
    seen = [int(src.read()[20, 30, 1]) for _ in range(4)]
    assert seen[:3] == pytest.approx([10, 20, 30], abs=2)
    assert seen[3] == pytest.approx(10, abs=2)
    once = FileSource(tmp_path, loop=False)
    assert [once.read() is None for _ in range(4)] == [False, False, False, True]


def test_video_source_reads_frames_and_loops(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for value in (40, 120, 200):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    src = open_camera(f"file:{path}")
    levels = [int(src.read().mean()) for _ in range(4)]
    src.close()
    assert levels[:3] == pytest.approx([40, 120, 200], abs=6)
    assert levels[3] == pytest.approx(40, abs=6)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("file:/no/such/place.png", "no such file or folder"),
        ("v4l2:zero", "v4l2:N"),
        ("webcam", "expected auto, picamera2, v4l2:N, file:PATH or sim"),
        ("file:", "file:PATH"),
        ("sim:chess", "expected one of strike"),
    ],
)
def test_bad_specs_say_what_was_expected(spec, expected):
    with pytest.raises((CameraError, ValueError), match=expected):
        open_camera(spec)


def test_a_file_that_is_neither_image_nor_video_is_refused(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("1,2")
    with pytest.raises(CameraError, match="expected an image"):
        FileSource(path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError, match="no images"):
        FileSource(empty)


def test_v4l2_without_a_device_returns_none_and_backs_off():
    clock = [100.0]
    src = V4L2Source(97, backoff=Backoff(first=0.5, ceiling=2.0, clock=lambda: clock[0]))
    assert src.name == "v4l2:97"
    assert src.read() is None
    assert src.backoff.delay == 0.5
    assert src.read() is None  # too early to try again: the delay does not grow
    assert src.backoff.delay == 0.5
    clock[0] += 0.6
    assert src.read() is None
    assert src.backoff.delay == 1.0
    src.close()


class _Flaky(camera._Reopening):
    """A camera that opens after `fail_opens` failures, then gives `frames` frames and vanishes."""

    name = "flaky"

    def __init__(self, fail_opens: int, frames: int, backoff: Backoff):
        super().__init__(backoff)
        self.fail_opens, self.frames, self.opened, self.released = fail_opens, frames, 0, 0

    def _open(self):
        if self.fail_opens > 0:
            self.fail_opens -= 1
            raise RuntimeError("camera not ready")
        self.opened += 1
        return object()

    def _grab(self, device):
        if self.frames == 0:
            return None
        self.frames -= 1
        return np.zeros((4, 4, 3), np.uint8)

    def _release(self, device):
        self.released += 1
        raise OSError("device already gone")  # releasing a vanished device may fail too


def test_a_camera_that_vanishes_returns_none_then_reopens_after_the_delay():
    clock = [0.0]
    src = _Flaky(fail_opens=1, frames=2, backoff=Backoff(first=1.0, clock=lambda: clock[0]))
    assert src.read() is None and not src.connected  # first open fails
    clock[0] += 1.0
    assert src.read() is not None and src.connected
    assert src.read() is not None
    assert src.read() is None and not src.connected  # the camera vanished mid-stream
    assert src.released == 1
    src.frames = 5
    assert src.read() is None  # waits for the back-off before reopening
    clock[0] += 1.0
    assert src.read() is not None and src.opened == 2
    assert src.backoff.delay == 0.0


def test_auto_falls_back_to_the_simulated_table(monkeypatch):
    monkeypatch.setattr(camera, "picamera2_available", lambda: False)
    monkeypatch.setattr(camera, "v4l2_devices", lambda root="/dev": [])
    src = open_camera("auto", size=(160, 120))
    assert src.name == "sim"
    frame = src.read()
    assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8
    assert isinstance(src, FrameSource)


def test_auto_skips_a_v4l2_node_that_does_not_answer(monkeypatch):
    monkeypatch.setattr(camera, "picamera2_available", lambda: False)
    monkeypatch.setattr(camera, "v4l2_devices", lambda root="/dev": [96])
    assert open_camera("auto", size=(160, 120), game="knister").name == "sim:knister"


def test_v4l2_devices_lists_video_nodes_in_order(tmp_path):
    for name in ("video10", "video2", "videoX", "media0"):
        (tmp_path / name).touch()
    assert camera.v4l2_devices(str(tmp_path)) == [2, 10]
