"""Frame sources: one small interface for every camera the table may have.

A frame source gives BGR uint8 images one at a time. Real cameras (picamera2 on the Pi, any V4L2
device through OpenCV), files (an image, a folder of images, a video) and the simulated table all
look the same to the caller, so the watcher and the kiosk never ask where frames come from.

A camera that vanishes (a loose ribbon cable, an unplugged USB webcam) must not crash the table:
`read()` returns None and the source tries to reopen itself, waiting longer after each failure
(back-off), so the kiosk can say "camera lost" and carry on.

`open_camera(spec)` turns a spec string into a source:
    "auto"        picamera2 when it imports and finds a camera, else the first V4L2 device that
                  answers, else the simulated table
    "picamera2"   the Pi camera
    "v4l2:N"      /dev/videoN through OpenCV
    "file:PATH"   an image, a folder of images (sorted by name, looped) or a video file (looped)
    "sim"         the simulated table (vision.sim.SimCamera); "sim:strike", "sim:knister", ...
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpeg", ".mjpg", ".h264")


class CameraError(ValueError):
    """A camera spec that names no usable source; the message says what was expected."""


@runtime_checkable
class FrameSource(Protocol):
    """What the rest of Arbitre needs from a camera."""

    name: str

    def read(self) -> np.ndarray | None:
        """The next frame (BGR uint8, H x W x 3), or None when there is none right now."""

    def close(self) -> None: ...


class _Source:
    """Context-manager plumbing shared by the sources."""

    name = "?"

    def read(self) -> np.ndarray | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class Backoff:
    """When to try reopening a lost camera: 0.5 s, then doubling up to `ceiling` seconds.

    The clock is injectable so tests need not sleep.
    """

    def __init__(
        self,
        first: float = 0.5,
        ceiling: float = 8.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.first, self.ceiling, self.clock = first, ceiling, clock
        self.delay = 0.0
        self.next_try = 0.0

    def ready(self) -> bool:
        return self.clock() >= self.next_try

    def failed(self) -> None:
        self.delay = self.first if self.delay == 0 else min(self.delay * 2, self.ceiling)
        self.next_try = self.clock() + self.delay

    def succeeded(self) -> None:
        self.delay = 0.0
        self.next_try = 0.0


class _Reopening(_Source):
    """A live camera: opens lazily, returns None while lost and reopens with back-off."""

    def __init__(self, backoff: Backoff | None = None):
        self.backoff = backoff or Backoff()
        self._device: Any = None

    def _open(self) -> Any:  # returns a device handle or raises OSError/RuntimeError
        raise NotImplementedError

    def _grab(self, device: Any) -> np.ndarray | None:
        raise NotImplementedError

    def _release(self, device: Any) -> None:
        pass

    @property
    def connected(self) -> bool:
        return self._device is not None

    def read(self) -> np.ndarray | None:
        if self._device is None:
            if not self.backoff.ready():
                return None
            try:
                self._device = self._open()
            except Exception:  # any driver failure means "no camera now", never a crash
                self.backoff.failed()
                return None
        try:
            frame = self._grab(self._device)
        except Exception:
            frame = None
        if frame is None:
            self._drop()
            return None
        self.backoff.succeeded()
        return frame

    def _drop(self) -> None:
        self.close()
        self.backoff.failed()

    def close(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            with contextlib.suppress(Exception):  # a vanished device may fail to release
                self._release(device)


class Picamera2Source(_Reopening):
    """The Raspberry Pi camera through picamera2 (imported only when this source opens)."""

    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (1280, 960), backoff: Backoff | None = None):
        super().__init__(backoff)
        self.size = size

    def _open(self) -> Any:
        from picamera2 import Picamera2  # the Pi-only library, absent on a PC

        cam = Picamera2()
        # RGB888 in picamera2's naming is laid out B, G, R in memory: what OpenCV calls BGR.
        config = cam.create_video_configuration(main={"size": self.size, "format": "RGB888"})
        cam.configure(config)
        cam.start()
        return cam

    def _grab(self, device: Any) -> np.ndarray | None:
        frame = device.capture_array("main")
        return None if frame is None else np.ascontiguousarray(frame[:, :, :3])

    def _release(self, device: Any) -> None:
        device.stop()
        device.close()


class V4L2Source(_Reopening):
    """A V4L2 device (/dev/videoN) through OpenCV: USB webcams, or the Pi camera via libcamera."""

    def __init__(
        self, index: int, size: tuple[int, int] = (1280, 960), backoff: Backoff | None = None
    ):
        super().__init__(backoff)
        self.index = index
        self.size = size
        self.name = f"v4l2:{index}"

    def _open(self) -> Any:
        import cv2

        cap = cv2.VideoCapture(self.index, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            raise OSError(f"no V4L2 device /dev/video{self.index}")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return cap

    def _grab(self, device: Any) -> np.ndarray | None:
        ok, frame = device.read()
        return frame if ok else None

    def _release(self, device: Any) -> None:
        device.release()


class FileSource(_Source):
    """Frames from disk: one image (repeated), a folder of images (looped) or a video (looped).

    Replaying recorded frames is how vision is tested and demonstrated without a camera.
    """

    def __init__(self, path: str | os.PathLike, loop: bool = True):
        self.path = Path(path)
        self.loop = loop
        self.name = f"file:{self.path}"
        self._images: list[Path] = []
        self._index = 0
        self._video: Any = None
        self._still: np.ndarray | None = None
        if self.path.is_dir():
            self._images = sorted(
                p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._images:
                raise CameraError(f"{self.path}: no images in this folder ({_suffixes()})")
        elif not self.path.is_file():
            raise CameraError(f"{self.path}: no such file or folder")
        elif self.path.suffix.lower() in IMAGE_SUFFIXES:
            self._still = _load_image(self.path)
        elif self.path.suffix.lower() in VIDEO_SUFFIXES:
            self._video = self._open_video()
        else:
            raise CameraError(
                f"{self.path}: expected an image ({_suffixes()}), a folder of images or a video "
                f"({', '.join(VIDEO_SUFFIXES)})"
            )

    def _open_video(self) -> Any:
        import cv2

        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise CameraError(f"{self.path}: OpenCV cannot open this video")
        return cap

    def read(self) -> np.ndarray | None:
        if self._still is not None:
            return self._still.copy()
        if self._images:
            return self._next_image()
        return self._next_video_frame()

    def _next_image(self) -> np.ndarray | None:
        if self._index >= len(self._images):
            if not self.loop:
                return None
            self._index = 0
        path = self._images[self._index]
        self._index += 1
        try:
            return _load_image(path)
        except CameraError:
            return None

    def _next_video_frame(self) -> np.ndarray | None:
        if self._video is None:
            return None
        ok, frame = self._video.read()
        if not ok and self.loop:
            self._video.set(1, 0)  # cv2.CAP_PROP_POS_FRAMES
            ok, frame = self._video.read()
        return frame if ok else None

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None


def _suffixes() -> str:
    return ", ".join(IMAGE_SUFFIXES)


def _load_image(path: Path) -> np.ndarray:
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CameraError(f"{path}: not a readable image")
    return image


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401
    except Exception:  # ImportError, or libcamera failing to load on a PC
        return False
    return True


def v4l2_devices(root: str = "/dev") -> list[int]:
    """Indices N of the /dev/videoN nodes present, in order."""
    found = []
    for p in Path(root).glob("video*"):
        suffix = p.name[len("video") :]
        if suffix.isdigit():
            found.append(int(suffix))
    return sorted(found)


def _v4l2_answers(index: int) -> bool:
    source = V4L2Source(index)
    try:
        return source.read() is not None
    finally:
        source.close()


def open_camera(spec: str = "auto", **sim_options: Any) -> FrameSource:
    """The frame source a spec names (see the module docstring); CameraError when malformed.

    `sim_options` go to the simulated table when it is chosen (seed, game, size, fps, ...).
    """
    spec = (spec or "auto").strip()
    kind, _, arg = spec.partition(":")
    if kind == "auto" and not arg:
        return _auto(**sim_options)
    if kind == "picamera2" and not arg:
        return Picamera2Source()
    if kind == "v4l2":
        if not arg.isdigit():
            raise CameraError(
                f"camera {spec!r}: expected v4l2:N with N a device number, e.g. v4l2:0"
            )
        return V4L2Source(int(arg))
    if kind == "file":
        if not arg:
            raise CameraError("camera 'file:': expected file:PATH (an image, folder or video)")
        return FileSource(arg)
    if kind == "sim":
        return _sim(arg or None, **sim_options)
    raise CameraError(
        f"camera {spec!r}: expected auto, picamera2, v4l2:N, file:PATH or sim[:strike|detrak|knister]"
    )


def _auto(**sim_options: Any) -> FrameSource:
    if picamera2_available():
        source = Picamera2Source()
        if source.read() is not None:
            return source
        source.close()
    for index in v4l2_devices():
        if _v4l2_answers(index):
            return V4L2Source(index)
    return _sim(None, **sim_options)


def _sim(which: str | None, **options: Any) -> FrameSource:
    from vision.sim import SimCamera

    if which:
        options["game"] = which
    return SimCamera(**options)
