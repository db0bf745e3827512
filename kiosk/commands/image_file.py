"""An image file read for a command, or the reason it cannot be: a maker who typed a wrong path
is told the file is not there, not that OpenCV cannot decode it."""

from __future__ import annotations

from pathlib import Path

EXPECTED = "an image file OpenCV reads (JPEG, PNG, BMP, TIFF, WebP)"


def read_image(path: str | Path):
    """(the BGR frame, "") or (None, why it could not be read)."""
    import cv2
    import numpy as np

    p = Path(path)
    if not p.exists():
        return None, f"{p}: no such file"
    if p.is_dir():
        return None, f"{p}: a directory, expected {EXPECTED}"
    try:
        data = np.fromfile(p, np.uint8)
    except OSError as err:
        return None, f"{p}: cannot open it ({err.strerror})"
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if frame is None:
        return None, f"{p}: not {EXPECTED}"
    return frame, ""
