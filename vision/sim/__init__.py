"""The simulated table: a rendered camera over dice that really move.

It stands in for the camera and the dice so the whole product runs, is demonstrated and is tested
on any PC. Pure and seeded: the same seed and the same calls give the same frames, bit for bit;
simulated time advances by 1/fps per frame read and never looks at the wall clock (the caller
paces it).

    from vision.sim import SimCamera
    cam = SimCamera(game="strike", seed=7, size=(1280, 960), fps=30, players=3, edition="2012")
    cam.place_start()                      # the start die, placed by hand; returns its face
    result = cam.throw(1, gather=True, seat=0)   # engine.strike_throw.ThrowResult
    while not cam.settled:
        frame = cam.read()                 # BGR uint8, H x W x 3
        truth = cam.truth()                # ground truth of that frame (below)
    if any(d.plan.cocked for d in cam.arena_dice()):
        cam.reroll_cocked(seat=0)          # the rule's "broken" die: re-rolled, put back
    faces = cam.arena_faces()              # what the engine's throw action carries
    gone = cam.settle_turn(seat=0)         # crosses and out dice set aside, pairs taken

Frame source (vision.camera.FrameSource): `name` ("sim", "sim:knister", "sim:detrak"), `read()`,
`close()`, context manager. `truth()` -> dict for the last frame read:
    {"frame": n, "t": seconds, "game": ..., "settled": bool, "hand": bool,
     "dice": [{"id", "face", "x", "y", "size", "cocked", "in_arena", "moving", "aside", "mm"}]}
x, y: the top face's centre in image pixels; size: its side in pixels; face: the face on top
(while moving, the one passing on top); mm: the die's centre on the table (mm from the arena's
centre, x right, y down). `arena_ellipse()` gives the arena's outline in pixels.

Actions (each starts when what is already scheduled is over; all return at once):
- any game: `hand_in_view(seat, duration, at)`, `take(ids, seat)`, `set_aside(ids, seat)`,
  `clear(seat)`; `settled`, `frames_until_settled()`, `skip(frames)`, `now`.
- Strike: `place_start(face=None, seat)`, `throw(count, gather=False, seat)`, `reroll_cocked(seat)`,
  `settle_turn(seat)`, `arena_dice()`, `arena_faces()`, `placed()`.
- Knister (pips) and Détrak (symbols): `roll_two(faces=None, seat)` -> the two faces.
Seats sit around the table (seat 0 at the bottom of the image); the hand comes from the seat.

Following a game the kiosk referees (the demo, `arbitre run --camera sim`): the kiosk owns the
engine and reads the frames; `vision.sim.follow.Follower(cam).step(state, go_on=False)` makes the
table do what the engine's state asks for (place the start die, throw, roll the two dice, re-roll
a cocked die after 2 s, tidy the arena the engine's way after a throw). Call it with the current
state before reading each frame; in Strike's "choose" phase the table throws again only when
`go_on` is True.

Drivers that play whole games through the engines by themselves are in vision.sim.drivers
(`strike_game`, `two_dice_game`); `SimCamera(..., autoplay=True)` plays one as frames are read.
"""

from vision.sim.simcamera import GAMES, SimCamera
from vision.sim.table import Look

__all__ = ["GAMES", "Look", "SimCamera"]
