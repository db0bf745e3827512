"""What the camera adds: glare on glossy dice, uneven light, colour cast, blur, noise, JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .backgrounds import randn
from .camera import Camera


def add_glare(img: np.ndarray, dice, cam: Camera, rng) -> None:
    """Specular spots near the edge of some top faces (where a lamp's reflection usually sits on
    a glossy die). They whiten part of the face, sometimes a pip's edge, never a whole face."""
    h, w = img.shape[:2]
    for d in dice:
        if d.cocked or rng.random() < 0.5:
            continue
        side = int(rng.integers(4))
        along, edge = rng.uniform(-0.8, 0.8), rng.uniform(0.72, 0.88)
        local = [(edge, along), (-edge, along), (along, edge), (along, -edge)][side]
        step = (0.0, 0.1) if side < 2 else (0.1, 0.0)  # along the edge the spot sits by
        ends = d.world(
            np.array([[local[0], local[1], 1.0], [local[0] + step[0], local[1] + step[1], 1.0]])
        )
        (x, y), (x2, y2) = cam.project(ends)
        px = d.side * cam.scale_at(d.centre)
        sigma = px * rng.uniform(0.04, 0.08)
        peak = rng.uniform(120, 240)
        stretch = rng.uniform(1.0, 2.2)  # a lamp's reflection stretches along the rounded edge
        ang = math.atan2(y2 - y, x2 - x)
        r = int(3 * sigma * stretch) + 2
        x0, y0, x1, y1 = int(x) - r, int(y) - r, int(x) + r + 1, int(y) + r + 1
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if cx0 >= cx1 or cy0 >= cy1:
            continue
        yy, xx = np.mgrid[cy0:cy1, cx0:cx1].astype(np.float32)
        u = (xx - x) * math.cos(ang) + (yy - y) * math.sin(ang)
        v = -(xx - x) * math.sin(ang) + (yy - y) * math.cos(ang)
        spot = np.exp(-0.5 * ((u / (sigma * stretch)) ** 2 + (v / sigma) ** 2)) * peak
        img[cy0:cy1, cx0:cx1] += spot[..., None]


def finish(img: np.ndarray, c: dict, rng) -> tuple[np.ndarray, bytes | None]:
    """Lighting falloff, white balance, blur, sensor noise and compression: float BGR -> uint8,
    and the JPEG file's bytes when compressed (decoding them gives exactly the image).
    An image drawn smaller than the frame is treated at its size, then enlarged: its noise is
    coarser than a pixel, like a phone's denoised 12 MP photo, and it costs little more than 3 MP."""
    w, h = c["frame"]
    rh, rw = img.shape[:2]
    scale = rw / w
    _light_field(img, c, rng)
    if c["blur"] > 0:
        img = cv2.GaussianBlur(img, (0, 0), max(0.3, c["blur"] * scale))
    if c["noise"] > 0:
        # Shot noise grows with brightness: sigma from 0.6 n (black) to 1.4 n (white).
        sigma = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        sigma = cv2.addWeighted(sigma, 0.8 * c["noise"] / 255, sigma, 0.0, 0.6 * c["noise"])
        # Luminance noise per pixel, colour noise at half resolution (demosaicing smears it).
        luma = cv2.multiply(randn((rh, rw), rng), sigma)
        chroma = randn(((rh + 1) // 2, (rw + 1) // 2, 3), rng)
        chroma = cv2.resize(chroma, (rw, rh), interpolation=cv2.INTER_LINEAR)
        cv2.scaleAdd(chroma, 0.6 * c["noise"], cv2.merge([luma] * 3), dst=chroma)
        cv2.add(img, chroma, dst=img)
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    if (rh, rw) != (h, w):
        out = cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
    if c["jpeg"]:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(c["jpeg"])])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), buf.tobytes()
    return out, None


def _light_field(img: np.ndarray, c: dict, rng) -> None:
    """Uneven light (a gradient and a vignette), exposure and white balance, in place."""
    h, w = img.shape[:2]
    sh, sw = max(2, h // 16), max(2, w // 16)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx, yy = xx / (sw - 1) - 0.5, yy / (sh - 1) - 0.5
    ang = rng.uniform(0, 2 * math.pi)
    field = 1 + c["light_gradient"] * 2 * (xx * math.cos(ang) + yy * math.sin(ang))
    field *= (1 - c["vignette"] * (xx * xx + yy * yy) * 2) * c["exposure"]
    full = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    gains = [1 + float(g) for g in c["colour_cast"]]
    cv2.multiply(img, cv2.merge([full * g for g in gains]), dst=img)
