"""The pages in Debian's Chromium (Playwright, headless, no browser download).

The table page and two seat pages are open at once; a Knister roll written by both seats on their
phones appears on the table without a reload. Screenshots go to tests/artifacts/ for humans.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx
import pytest
from test_kiosk_fake import free_port

from kiosk.app import create_app
from kiosk.config import Config
from kiosk.table import Table

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path("tests/artifacts")
TABLE_SCREEN = {"width": 800, "height": 480}
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 375, "height": 667}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """uvicorn in a thread around an in-process Table, so the test can also play the camera."""
    import uvicorn

    table = Table(Config(data_dir=str(tmp_path_factory.mktemp("browser"))))
    table.camera_name = "simulated_camera"
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(table), port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started, "uvicorn did not start"
    yield table, url
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (never a downloaded browser)")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def seat_url(url: str, seat: int) -> str:
    qr = httpx.get(f"{url}/api/seats/{seat}/qr.svg")  # the table's own screen may read it
    assert qr.status_code == 200
    return url + "/seat/" + qr.headers["x-seat-url"].split("/seat/", 1)[1]


def test_knister_roll_written_on_two_phones_appears_on_the_table(server, browser) -> None:
    table, url = server
    table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
    screen = browser.new_page(viewport=TABLE_SCREEN)
    screen.goto(url + "/")
    screen.wait_for_selector(".sheet")
    screen.evaluate("window.__noReload = true")
    phones = [browser.new_page(viewport=PHONE) for _ in range(2)]
    for seat, phone in enumerate(phones):
        phone.goto(seat_url(url, seat))
        phone.wait_for_selector(".sheet")

    table.submit({"act": "roll", "dice": [3, 4]}, source="camera")
    rolled = table.seq
    for phone in phones:  # a tap before the phone has drawn the roll writes nothing
        phone.wait_for_function(f"() => document.body.dataset.seq === '{rolled}'")
    # both seats write the roll at once: the later tap, decided on the roll's seq after the other
    # seat's write has passed it, still lands (kiosk/late_lines.py)
    phones[0].click('button.cell[data-cell="0,0"]')
    phones[1].click('button.cell[data-cell="2,3"]')

    screen.wait_for_function(
        """() => [...document.querySelectorAll('.sheets .sheet')].map(
             s => [...s.children].filter(c => c.textContent === '7').length).join() === '1,1'"""
    )  # the default wait: 5 s was not enough on a loaded 2-core machine (session 25)
    assert screen.evaluate("window.__noReload") is True
    assert table.state.view()["sheets"][0][0][0] == 7 and table.state.view()["sheets"][1][2][3] == 7
    # the other seat's phone shows the write too, and nobody waits any more
    phones[0].wait_for_function("() => !document.querySelector('button.cell.empty')")
    screen.screenshot(path=str(ARTIFACTS / "table-knister-800x480.png"))
    for seat, phone in enumerate(phones):
        phone.screenshot(path=str(ARTIFACTS / f"seat{seat}-knister-375x667.png"))
    _play_a_few_rounds(table)
    screen.wait_for_function(f"() => document.body.dataset.seq === '{table.seq}'")
    screen.screenshot(path=str(ARTIFACTS / "table-knister-midgame-800x480.png"))
    if os.environ.get("ARBITRE_DOCS_IMG"):  # refresh the README's picture on request only
        Path("docs/img").mkdir(parents=True, exist_ok=True)
        screen.screenshot(path="docs/img/table.png")
    tv = browser.new_page(viewport=TV)
    tv.goto(url + "/")
    tv.wait_for_selector(".sheet")
    tv.screenshot(path=str(ARTIFACTS / "table-knister-1920x1080.png"))
    for page in (screen, tv, *phones):
        page.close()


def test_a_die_read_under_the_tables_line_is_shown_red(server, browser) -> None:
    """The table asks below 0.9; a die read at 0.85 is the one the question is about, and the
    page marks it (the page once kept its own line, 0.8, and showed it as sure)."""
    table, url = server
    table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
    sure = {"face": 5, "x": 120, "y": 100, "size": 40, "in_arena": True, "cocked": False}
    dice = [{**sure, "confidence": 0.97}, {**sure, "face": 3, "x": 260, "confidence": 0.85}]
    table.propose({"act": "roll", "dice": [5, 3]}, ["low_confidence"], _jpeg(), dice)
    screen = browser.new_page(viewport=TABLE_SCREEN)
    screen.goto(url + "/")
    screen.wait_for_selector(".check .frame-wrap .overlay")
    marked = screen.eval_on_selector_all(
        ".check-dice button.face", "bs => bs.map(b => b.classList.contains('doubt'))"
    )
    assert marked == [False, True]
    strokes = screen.eval_on_selector_all(
        ".check .overlay rect", "rs => rs.map(r => r.getAttribute('stroke'))"
    )
    assert strokes == ["#30ff60", "#ff3030"]
    screen.close()


def test_check_is_shown_fixed_by_a_tap_and_confirmed(server, browser) -> None:
    table, url = server
    table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
    dice = [
        {
            "face": 5,
            "x": 120,
            "y": 100,
            "size": 40,
            "in_arena": True,
            "cocked": False,
            "confidence": 0.97,
        },
        {
            "face": None,
            "x": 260,
            "y": 140,
            "size": 40,
            "in_arena": True,
            "cocked": True,
            "confidence": 0.2,
        },
    ]
    table.propose({"act": "roll", "dice": [5, None]}, ["cocked die"], _jpeg(), dice)
    screen = browser.new_page(viewport=TABLE_SCREEN)
    screen.goto(url + "/")
    screen.wait_for_selector(".check .frame-wrap .overlay")
    screen.screenshot(path=str(ARTIFACTS / "table-check-800x480.png"))
    assert table.seq == 0  # nothing enters the record unconfirmed
    screen.click(".check-dice button.face.doubt")
    screen.click(".picker button.face >> nth=1")  # the face 2
    screen.wait_for_function("() => !document.querySelector('.check-dice button.doubt')")
    screen.click(".check button.go")
    screen.wait_for_selector("#check-layer[hidden]", state="attached")
    assert table.pending is None and table.record_text().splitlines()[-1] == (
        '{"act": "roll", "dice": [5, 2]}'
    )
    screen.close()


def test_setup_page_starts_a_game(server, browser) -> None:
    table, url = server
    page = browser.new_page(viewport=PHONE)
    page.goto(url + "/setup")
    page.select_option("#game", "joust")
    inputs = page.locator("input.player")
    inputs.nth(0).fill("Ana")
    inputs.nth(1).fill("Ben")
    page.screenshot(path=str(ARTIFACTS / "setup-375x667.png"))
    page.click("#start")
    page.wait_for_url(url + "/")
    assert table.game.name == "joust" and table.game.players == ("Ana", "Ben")
    page.close()


def _play_a_few_rounds(table: Table) -> None:
    import random

    from engine import bots

    rng = random.Random(7)
    for _ in range(3):
        table.submit(bots.chance(table.state, rng).to_json(), source="camera")
        for seat in list(table.state.turn()):
            table.submit(bots.bot("knister", "greedy").act(table.state, seat, rng).to_json())


def _jpeg() -> bytes:
    import cv2
    import numpy as np

    img = np.full((240, 400, 3), (40, 110, 40), np.uint8)
    for x, y in ((120, 100), (260, 140)):
        cv2.rectangle(img, (x - 20, y - 20), (x + 20, y + 20), (245, 245, 245), -1)
    return cv2.imencode(".jpg", img)[1].tobytes()


def test_joust_stacks_on_two_phones_then_the_table_reveals(server, browser) -> None:
    table, url = server
    table.new_game({"game": "joust", "players": ["Ana", "Ben"]})
    screen = browser.new_page(viewport=TABLE_SCREEN)
    screen.goto(url + "/")
    screen.wait_for_selector(".track")
    phones = [browser.new_page(viewport=PHONE) for _ in range(2)]
    orders = [[6, 1, 5, 2, 4, 3], [2, 3, 1, 6, 5, 4]]
    for seat, phone in enumerate(phones):
        phone.goto(seat_url(url, seat))
        for card in orders[seat]:
            phone.click(f".seat-joust button.big-card >> text='{card}'")
        if seat == 0:
            phone.screenshot(path=str(ARTIFACTS / "seat0-joust-stack-375x667.png"))
        phone.click(".seat-joust button.go")
    screen.click(".joust button.go")  # «Révéler» on the table's screen
    screen.wait_for_function("() => document.querySelectorAll('.played .card').length === 2")
    assert [c.strip() for c in screen.locator(".played .card").all_inner_texts()] == ["6", "2"]
    phones[1].wait_for_function("() => document.body.dataset.seq === '3'")
    # seat 1's phone shows its own remaining stack, never seat 0's
    stack = phones[1].locator(".seat-joust > .cards .card").all_inner_texts()
    assert [int(c) for c in stack] == orders[1][1:]
    screen.screenshot(path=str(ARTIFACTS / "table-joust-800x480.png"))
    phones[1].screenshot(path=str(ARTIFACTS / "seat1-joust-375x667.png"))
    for page in (screen, *phones):
        page.close()


def test_stratego_setup_on_a_phone_with_random_fill(server, browser) -> None:
    table, url = server
    table.new_game({"game": "stratego", "players": ["Ana", "Ben"]})
    phone = browser.new_page(viewport=PHONE)
    phone.goto(seat_url(url, 1))
    phone.wait_for_selector(".seat-stratego .board")
    phone.click(".seat-stratego button:not(.go) >> nth=-1")  # «Placement au hasard»
    phone.click('.board [data-sq="a7"]')
    phone.click('.board [data-sq="j10"]')  # swap two pieces
    phone.screenshot(path=str(ARTIFACTS / "seat1-stratego-setup-375x667.png"))
    before = phone.locator('.board [data-sq="j10"]').inner_text()
    phone.click(".seat-stratego button.go")
    phone.wait_for_function("() => document.body.dataset.seq === '1'")
    board = table.state.view(None)["board"]
    assert board["j10"] == [1, before] and sum(1 for p in board.values() if p[0] == 1) == 40
    phone.close()


def test_strike_arena_picture_with_the_reading_drawn_over_it(server, browser) -> None:
    table, url = server
    table.new_game({"game": "strike", "players": ["Ana", "Ben", "Cy"]})
    table.submit({"act": "start", "arena": [5]}, source="camera")
    dice = [
        {
            "face": 5,
            "x": 120,
            "y": 100,
            "size": 40,
            "in_arena": True,
            "cocked": False,
            "confidence": 0.98,
        },
        {
            "face": "X",
            "x": 260,
            "y": 140,
            "size": 40,
            "in_arena": True,
            "cocked": False,
            "confidence": 0.95,
        },
        {
            "face": 3,
            "x": 380,
            "y": 30,
            "size": 40,
            "in_arena": False,
            "cocked": False,
            "confidence": 0.9,
        },
    ]
    table.set_frame(_jpeg(), dice)
    screen = browser.new_page(viewport=TABLE_SCREEN)
    screen.goto(url + "/")
    screen.wait_for_selector(".arena .overlay")
    assert screen.locator(".arena .overlay g.reading").count() == 3
    labels = screen.evaluate(
        "[...document.querySelectorAll('.arena .overlay text')].map(t => t.textContent)"
    )
    assert labels == ["5", "X", "3"]
    table.set_frame(_jpeg(), dice[:1])  # the next picture replaces the reading in place
    screen.wait_for_function(
        "() => document.querySelectorAll('.arena .overlay g.reading').length === 1"
    )
    screen.screenshot(path=str(ARTIFACTS / "table-strike-800x480.png"))
    screen.close()
