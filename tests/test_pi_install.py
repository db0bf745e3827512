"""The Raspberry Pi install: its scripts parse and pass shellcheck, its unit verifies, its dry run
says what it would do and changes nothing, and the kiosk starts Chromium once the app answers."""

import os
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

PI = Path("hardware/pi")
SCRIPTS = [PI / "install.sh", PI / "kiosk.sh"]


def sh(*args, env=None, timeout=30):
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_parse(script):
    result = sh("bash", "-n", str(script))
    assert result.returncode == 0, result.stderr
    assert os.access(script, os.X_OK)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_scripts_pass_shellcheck():
    result = sh("shellcheck", *map(str, SCRIPTS))
    assert result.returncode == 0, result.stdout


@pytest.fixture
def fake_home(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    arbitre = venv / "bin" / "arbitre"
    arbitre.write_text("#!/bin/sh\n")
    arbitre.chmod(0o755)
    return {
        "ARBITRE_HOME": str(tmp_path),
        "ARBITRE_VENV": str(venv),
        "ARBITRE_CONFIG": str(tmp_path / ".config/arbitre/arbitre.toml"),
        "ARBITRE_USER": os.environ.get("USER") or "root",
    }


def render_unit(env):
    result = sh("bash", str(PI / "install.sh"), "--print-unit", env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_unit_runs_arbitre_and_restarts_on_failure(fake_home):
    unit = render_unit(fake_home)
    assert "@" not in unit.replace("%", "")
    assert f"ExecStart={fake_home['ARBITRE_VENV']}/bin/arbitre run --config " in unit
    assert "Restart=on-failure" in unit and "WantedBy=multi-user.target" in unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_the_unit_passes_systemd_analyze_verify(fake_home, tmp_path):
    unit = tmp_path / "arbitre.service"
    unit.write_text(render_unit(fake_home))
    result = sh("systemd-analyze", "verify", str(unit))
    assert result.returncode == 0, result.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(unit.read_text().replace(fake_home["ARBITRE_VENV"], "/nowhere"))
    assert sh("systemd-analyze", "verify", str(broken)).returncode != 0  # the check can fail


def test_the_dry_run_lists_every_step_and_changes_nothing(fake_home, tmp_path):
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = sh("bash", str(PI / "install.sh"), "--dry-run", env=fake_home)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for expected in [
        "apt-get install -y --no-install-recommends python3-venv python3-picamera2 python3-lgpio",
        " chromium ",
        "-m venv --system-site-packages",
        "pip install --quiet -e",
        "cp ",
        "systemctl enable --now arbitre.service",
        "kiosk.sh &  # arbitre kiosk' >> " + fake_home["ARBITRE_HOME"] + "/.config/labwc/autostart",
    ]:
        assert expected in out, expected
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_without_root_and_without_dry_run_it_refuses(fake_home):
    if os.geteuid() == 0:
        pytest.skip("running as root")
    result = sh("bash", str(PI / "install.sh"), env=fake_home)
    assert result.returncode == 1 and "sudo" in result.stderr


def test_an_unknown_option_is_refused(fake_home):
    result = sh("bash", str(PI / "install.sh"), "--force", env=fake_home)
    assert result.returncode == 2 and "--dry-run" in result.stderr


class Health(BaseHTTPRequestHandler):
    calls: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server API
        Health.calls.append(self.path)
        ready = len(Health.calls) > 2  # the app answers from the third try on
        self.send_response(200 if ready and self.path == "/api/health" else 503)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl not installed")
def test_the_kiosk_opens_chromium_only_once_the_app_answers(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "chromium.log"
    fake = bin_dir / "chromium"
    fake.write_text(f'#!/bin/sh\necho "$@" > {log}\n')
    fake.chmod(0o755)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    env = {
        "ARBITRE_URL": url,
        "ARBITRE_WAIT_SECONDS": "10",
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
    }
    try:
        result = sh("bash", str(PI / "kiosk.sh"), env=env)
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    args = log.read_text()
    assert "--kiosk" in args and args.strip().endswith(url + "/")
    assert Health.calls[-1] == "/api/health" and len(Health.calls) >= 3
