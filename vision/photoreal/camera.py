"""The spec's camera (spec.py) as numpy: where a point of the scene lands in the rendered frame.

The renders' truth keeps each die's top face in the image, not its pose in space; the axis
network (vision/learned/axis.py) wants where a flat die's bottom face lies from its top face.
Both follow from the camera the spec drew: Blender places it at `loc`, its -Z axis tracking
`target`, its Y axis up, then turns it by `roll` about its own axis (blender_scene._camera);
checked against Blender's own projection (`world_to_camera_view`) in session 28, to 0.03 px.
"""

from __future__ import annotations

import numpy as np

UP = np.array([0.0, 0.0, 1.0])


def axes(camera: dict) -> np.ndarray:
    """3 x 3: the camera's right, up and backward axes in the world, as columns."""
    loc, target = np.asarray(camera["loc"], float), np.asarray(camera["target"], float)
    forward = (target - loc) / np.linalg.norm(target - loc)
    right = np.cross(forward, UP)
    if np.linalg.norm(right) < 1e-9:  # (straight down, which the spec never draws: any right)
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    c, s = np.cos(camera["roll"]), np.sin(camera["roll"])
    return np.column_stack([c * right + s * up, -s * right + c * up, -forward])


def project(camera: dict, frame, points) -> np.ndarray:
    """N x 2 pixels (x right, y down, the frame's top-left corner at 0) of N x 3 world points."""
    w, h = frame
    p = (np.asarray(points, float).reshape(-1, 3) - np.asarray(camera["loc"], float)) @ axes(camera)
    depth = -p[:, 2]
    return np.column_stack(
        [w / 2 + camera["f_px"] * p[:, 0] / depth, h / 2 - camera["f_px"] * p[:, 1] / depth]
    )


def below(camera: dict, frame) -> np.ndarray:
    """The point below the camera in the frame: where every vertical line of the scene meets."""
    return project(camera, frame, [[camera["loc"][0], camera["loc"][1], 0.0]])[0]


def on_plane(camera: dict, frame, pixels, z: float) -> np.ndarray:
    """N x 3: the points at height `z` that land on `pixels` (N x 2), back along their rays."""
    w, h = frame
    px = np.asarray(pixels, float).reshape(-1, 2)
    rays = (
        np.column_stack(
            [
                (px[:, 0] - w / 2) / camera["f_px"],
                (h / 2 - px[:, 1]) / camera["f_px"],
                -np.ones(len(px)),
            ]
        )
        @ axes(camera).T
    )
    loc = np.asarray(camera["loc"], float)
    return loc + rays * ((z - loc[2]) / rays[:, 2])[:, None]


def bottom_offsets(camera: dict, frame, tops, sizes, side_cm: float) -> np.ndarray:
    """Where each flat die's bottom face lies from its top face (N x 2, in the die's sides in
    the image), for dice resting on the table (z = 0) with their top face's centre at `tops`
    (N x 2 px) and `sizes` px wide: the top face's centre taken back to its height, the bottom
    face's centre one side below it, brought to the frame again."""
    tops = np.asarray(tops, float).reshape(-1, 2)
    bottoms = project(camera, frame, on_plane(camera, frame, tops, side_cm) - [0.0, 0.0, side_cm])
    return (bottoms - tops) / np.asarray(sizes, float).reshape(-1, 1)
