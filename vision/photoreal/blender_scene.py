"""Run inside Blender (`blender -b --factory-startup -P blender_scene.py -- SPEC OUT_PREFIX`):
build one table from a scene spec (vision/photoreal/spec.py), drop the dice with Bullet's rigid
bodies, render it with Cycles on the CPU and write where every die came to rest.

Blender's own Python has bpy and mathutils but no numpy nor OpenCV, so this file imports nothing
of ours: the spec brings every choice already drawn (textures as files), and the truth (which face
is up, is the die cocked) is made from the poses written here, in our own Python
(vision/photoreal/truth.py), where it is tested. Units: 1 Blender unit = 1 cm; gravity stays
9.81 units/s², so the dice fall like 1.6 m dice in slow motion: same resting poses, more frames.
"""

import json
import math
import sys

import bmesh
import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Quaternion, Vector

# local axes of a die, in the order of the spec's six faces (tiles of the 3 x 2 atlas)
AXES = ((0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0))
# for each face: the two in-face axes (u right, v up in the tile)
FACE_UV_AXES = (
    ((1, 0, 0), (0, 1, 0)),
    ((-1, 0, 0), (0, 1, 0)),
    ((0, 1, 0), (0, 0, 1)),
    ((0, -1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, 0, 1)),
    ((1, 0, 0), (0, 0, 1)),
)


def main(spec_path: str, out_prefix: str) -> None:
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    _render_settings(scene, spec)
    _world(spec["ambient"])
    _table(spec)
    if spec.get("arena"):
        _arena(spec["arena"])
    dice = [_die(d, spec["die_side_cm"], i) for i, d in enumerate(spec["dice"])]
    _sun(spec["sun"])
    cam = _camera(scene, spec["camera"])
    _settle(scene, spec["frames"])
    scene.render.filepath = out_prefix + ".png"
    bpy.ops.render.render(write_still=True)
    poses = [_pose(scene, cam, o, spec["die_side_cm"]) for o in dice]
    region = None
    if scene.render.resolution_percentage < 100:
        region = _dice_region(scene, cam, dice)
        scene.render.filepath = out_prefix + ".region.png"
        bpy.ops.render.render(write_still=True)
    with open(out_prefix + ".poses.json", "w", encoding="utf-8") as f:
        json.dump({"dice": poses, "region": region}, f)


def _dice_region(scene, cam, dice) -> list[int]:
    """Set the render to the dice's region of the frame (every die's corners, and a margin
    of a die's size) at full size; returns it in pixels (x0, y0, x1, y1, y down). A frame
    rendered small and enlarged would show a 20 px die as the blur of a 7 px one: a 12 Mpx
    photo's die has its own pixels."""
    w, h = scene.render.resolution_x, scene.render.resolution_y
    pts = [
        world_to_camera_view(scene, cam, o.matrix_world @ Vector(c))
        for o in dice
        for c in o.bound_box
    ]
    pts = [p for p in pts if p.z > 0]
    xs = [p.x * w for p in pts]
    ys = [(1 - p.y) * h for p in pts]
    pad = max(max(xs) - min(xs), max(ys) - min(ys)) / 40 + 16
    x0, x1 = max(0, int(min(xs) - pad)), min(w, int(max(xs) + pad) + 1)
    y0, y1 = max(0, int(min(ys) - pad)), min(h, int(max(ys) + pad) + 1)
    r = scene.render
    r.resolution_percentage = 100
    r.use_border, r.use_crop_to_border = True, True
    r.border_min_x, r.border_max_x = x0 / w, x1 / w
    r.border_min_y, r.border_max_y = 1 - y1 / h, 1 - y0 / h
    return [x0, y0, x1, y1]


def _render_settings(scene, spec) -> None:
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = spec["samples"]
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = 0.03
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 4
    scene.cycles.transmission_bounces = 6
    scene.cycles.seed = spec["seed"] % (1 << 30)
    w, h = spec["frame"]
    scene.render.resolution_x, scene.render.resolution_y = w, h
    scene.render.resolution_percentage = spec["render_percent"]
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.threads_mode = "FIXED"
    scene.render.threads = 2  # this machine's cores; Cycles on the CPU
    scene.view_settings.view_transform = "Standard"
    scene.view_settings.exposure = spec["exposure"]


def _world(ambient) -> None:
    world = bpy.data.worlds.new("world")
    bpy.context.scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*ambient["colour"], 1.0)
    bg.inputs["Strength"].default_value = ambient["strength"]


def _table_material(bg):
    """The table's texture, tiled: it covers `size_cm`, the plane `plane_cm` (an oblique photo
    sees far across the table)."""
    mat, bsdf = _material("table")
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    coords = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    k = bg["plane_cm"] / bg["size_cm"]
    mapping.inputs["Scale"].default_value = (k, k, 1)
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(bg["path"])
    links.new(coords.outputs["UV"], mapping.inputs["Vector"])
    links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = bg["roughness"]
    bsdf.inputs["Specular"].default_value = 0.3
    return mat


def _table(spec) -> None:
    bg = spec["background"]
    bpy.ops.mesh.primitive_plane_add(size=bg["plane_cm"], location=(0, 0, 0))
    plane = bpy.context.active_object
    plane.data.materials.append(_table_material(bg))
    bpy.ops.rigidbody.object_add()
    plane.rigid_body.type = "PASSIVE"
    plane.rigid_body.friction = 0.8
    plane.rigid_body.restitution = 0.1


def _ellipse(a: float, b: float, angle: float, z: float, n: int = 128):
    c, s = math.cos(angle), math.sin(angle)
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        u, v = a * math.cos(t), b * math.sin(t)
        pts.append(Vector((u * c - v * s, u * s + v * c, z)))
    return pts


def _arena(arena) -> None:
    """The Strike box: a rim (a collider: dice lean on its wall) around a foam oval."""
    (a, b), rim, h, ang = arena["axes_cm"], arena["rim_cm"], arena["height_cm"], arena["angle"]
    bm = bmesh.new()
    rings = [[bm.verts.new(p) for p in _ellipse(a, b, ang, z)] for z in (0.0, h)] + [
        [bm.verts.new(p) for p in _ellipse(a + rim, b + rim, ang, z)] for z in (h, 0.0)
    ]
    n = len(rings[0])
    for r in range(3):  # inner wall, top, outer wall
        for k in range(n):
            j = (k + 1) % n
            bm.faces.new((rings[r][k], rings[r][j], rings[r + 1][j], rings[r + 1][k]))
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    o = _object("rim", bm)
    mat, bsdf = _material("box")
    bsdf.inputs["Base Color"].default_value = (*arena["box"], 1)
    bsdf.inputs["Roughness"].default_value = 0.35
    o.data.materials.append(mat)
    _rigid(o)
    o.rigid_body.type = "PASSIVE"
    o.rigid_body.collision_shape = "MESH"
    o.rigid_body.friction = 0.5
    _foam(arena, a, b, ang)


def _foam(arena, a: float, b: float, ang: float) -> None:
    """The oval's foam mat, painted just over the table (no collider: the dice rest on the
    table, 0.01 cm under its surface)."""
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new("UVMap")
    face = bm.faces.new([bm.verts.new(p) for p in _ellipse(a, b, ang, 0.01)])
    c, s = math.cos(ang), math.sin(ang)
    for loop in face.loops:
        x, y = loop.vert.co.x, loop.vert.co.y
        loop[uv].uv = ((x * c + y * s) / (2 * a) + 0.5, (-x * s + y * c) / (2 * a) + 0.5)
    o = _object("foam", bm)
    mat, bsdf = _material("foam")
    tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(arena["foam"])
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = 0.9
    bsdf.inputs["Specular"].default_value = 0.1
    o.data.materials.append(mat)


def _object(name: str, bm):
    """A new object, linked to the scene, of the mesh in `bm` (freed)."""
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    o = bpy.data.objects.new(name, me)
    bpy.context.collection.objects.link(o)
    return o


def _material(name: str):
    """A new node material and its Principled BSDF."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    return mat, mat.node_tree.nodes["Principled BSDF"]


def _rigid(o) -> None:
    """Give `o` a rigid body (Blender's operator acts on the active, selected object)."""
    bpy.context.view_layer.objects.active = o
    o.select_set(True)
    bpy.ops.rigidbody.object_add()
    o.select_set(False)


def _die_mesh(side: float):
    """A cube whose six faces each map their tile of a 3 x 2 atlas (face i at column i % 3,
    row i // 3, the tile's up along the face's second axis)."""
    me = bpy.data.meshes.new("die")
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new("UVMap")
    h = side / 2
    for i, (n, (u, v)) in enumerate(zip(AXES, FACE_UV_AXES, strict=True)):
        n, u, v = Vector(n), Vector(u), Vector(v)
        corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        verts = [bm.verts.new(n * h + u * (a * h) + v * (b * h)) for a, b in corners]
        face = bm.faces.new(verts)
        if face.normal.dot(n) < 0:
            face.normal_flip()
        col, row = i % 3, i // 3
        for loop in face.loops:
            p = loop.vert.co
            a, b = p.dot(u) / side + 0.5, p.dot(v) / side + 0.5
            loop[uv].uv = ((col + a) / 3, 1 - (row + 1 - b) / 2)
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
    bm.to_mesh(me)
    bm.free()
    return me


def _die(d, side: float, i: int):
    me = _die_mesh(side)
    o = bpy.data.objects.new(f"die{i}", me)
    bpy.context.collection.objects.link(o)
    o.location = d["loc"]
    o.rotation_mode = "QUATERNION"
    o.rotation_quaternion = Quaternion(d["quat"])
    bevel = o.modifiers.new("bevel", "BEVEL")
    bevel.width = side * d["bevel"]
    bevel.segments = 4
    bevel.harden_normals = False
    me.use_auto_smooth = True
    for p in me.polygons:
        p.use_smooth = True
    o.data.materials.append(_die_material(d, i))
    _rigid(o)
    o.rigid_body.collision_shape = "BOX"
    o.rigid_body.mass = 0.004
    o.rigid_body.friction = 0.5
    o.rigid_body.restitution = 0.15
    o.rigid_body.collision_margin = 0.01
    o.rigid_body.linear_damping = 0.3
    o.rigid_body.angular_damping = 0.4
    return o


def _die_material(d, i: int):
    mat, bsdf = _material(f"die{i}")
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(d["atlas"])
    tex.interpolation = "Cubic"
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    marks = nodes.new("ShaderNodeTexImage")
    marks.image = bpy.data.images.load(d["marks"])
    marks.image.colorspace_settings.name = "Non-Color"
    bump = nodes.new("ShaderNodeBump")
    bump.invert = True  # pips and symbols are dimples, engraved in the body
    bump.inputs["Strength"].default_value = d["engraving"]
    bump.inputs["Distance"].default_value = 0.05
    links.new(marks.outputs["Color"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    bsdf.inputs["Roughness"].default_value = d["roughness"]
    bsdf.inputs["Specular"].default_value = 0.5
    if d.get("translucent"):
        bsdf.inputs["Transmission"].default_value = d["translucent"]
        bsdf.inputs["IOR"].default_value = 1.5
    return mat


def _sun(sun) -> None:
    light = bpy.data.lights.new("sun", "SUN")
    light.energy = sun["energy"]
    light.angle = sun["angle"]
    o = bpy.data.objects.new("sun", light)
    bpy.context.collection.objects.link(o)
    o.rotation_euler = Vector(sun["dir"]).to_track_quat("Z", "Y").to_euler()
    if sun.get("lamp"):
        lamp = bpy.data.lights.new("lamp", "AREA")
        lamp.energy = sun["lamp"]["energy"]
        lamp.size = sun["lamp"]["size"]
        lo = bpy.data.objects.new("lamp", lamp)
        bpy.context.collection.objects.link(lo)
        lo.location = sun["lamp"]["loc"]
        lo.rotation_euler = (-Vector(sun["lamp"]["loc"])).to_track_quat("-Z", "Y").to_euler()


def _camera(scene, c):
    cam_data = bpy.data.cameras.new("camera")
    cam_data.lens = c["lens_mm"]
    cam_data.sensor_fit = "HORIZONTAL"
    cam_data.sensor_width = 36.0
    cam_data.clip_start = 1.0
    cam_data.clip_end = 2000.0
    cam = bpy.data.objects.new("camera", cam_data)
    bpy.context.collection.objects.link(cam)
    cam.location = c["loc"]
    look = Vector(c["target"]) - Vector(c["loc"])
    quat = look.to_track_quat("-Z", "Y")
    cam.rotation_euler = (quat @ Euler((0, 0, c["roll"])).to_quaternion()).to_euler()
    scene.camera = cam
    return cam


def _settle(scene, frames: int) -> None:
    world = scene.rigidbody_world
    world.substeps_per_frame = 30
    world.solver_iterations = 30
    world.point_cache.frame_start = 1
    world.point_cache.frame_end = frames
    scene.frame_start, scene.frame_end = 1, frames
    for f in range(1, frames + 1):
        scene.frame_set(f)


def _pose(scene, cam, o, side: float) -> dict:
    """The die's resting pose: which local axis points most up, how far from vertical it leans,
    and its top face (centre and corners) in the image."""
    m = o.matrix_world.copy()
    rot = m.to_3x3().normalized()
    ups = [(rot @ Vector(a)).z for a in AXES]
    top = max(range(6), key=lambda k: ups[k])
    tip = math.degrees(math.acos(max(-1.0, min(1.0, ups[top]))))
    n = rot @ Vector(AXES[top])
    u = rot @ Vector(FACE_UV_AXES[top][0])
    v = rot @ Vector(FACE_UV_AXES[top][1])
    centre = m.translation + n * (side / 2)
    corners = [
        centre + (u * a + v * b) * (side / 2) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    w, h = scene.render.resolution_x, scene.render.resolution_y

    def px(p):
        q = world_to_camera_view(scene, cam, p)
        return [q.x * w, (1 - q.y) * h, q.z]

    return {
        "top": top,
        "tip": tip,
        "centre": px(centre),
        "corners": [px(p) for p in corners],
        "location": list(m.translation),
        "visible": _visible(scene, cam, o, centre, u, v, side),
    }


def _visible(scene, cam, o, centre, u, v, side: float) -> float:
    """The share of the top face the camera sees: rays from the camera to a 5 x 5 grid on its
    flat part, and how many reach this die first (a die leaning on it, or a nearer die in an
    oblique photo, hides part of it)."""
    graph = bpy.context.evaluated_depsgraph_get()
    eye = cam.matrix_world.translation
    seen = 0
    steps = (-0.3, -0.15, 0.0, 0.15, 0.3)
    for a in steps:
        for b in steps:
            p = centre + (u * a + v * b) * side
            ray = p - eye
            hit, _, _, _, obj, _ = scene.ray_cast(
                graph, eye, ray.normalized(), distance=ray.length + 0.05
            )
            seen += bool(hit and obj is not None and obj.name == o.name)
    return seen / len(steps) ** 2


if __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1 :]
    main(argv[0], argv[1])
