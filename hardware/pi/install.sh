#!/usr/bin/env bash
# Install Arbitre on Raspberry Pi OS (Bookworm or later, desktop with labwc; Pi 5 or Pi 4).
#
#   sudo hardware/pi/install.sh              # from the checkout, as the desktop user via sudo
#   hardware/pi/install.sh --dry-run         # print what would be done, change nothing
#   hardware/pi/install.sh --print-unit      # print the systemd unit it would install
#
# What it does: apt packages (picamera2, lgpio, OpenCV and Chromium from Raspberry Pi OS), a venv
# with --system-site-packages (so the apt libraries are seen) holding Arbitre, a config file
# from arbitre.example.toml if there is none, a systemd service running `arbitre run` with
# Restart=on-failure, a labwc autostart line opening Chromium in kiosk mode once the app answers,
# and screen blanking off. Running it again is safe: each step checks before it changes anything.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TARGET_USER=${ARBITRE_USER:-${SUDO_USER:-$(id -un)}}
TARGET_HOME=${ARBITRE_HOME:-$(getent passwd "$TARGET_USER" | cut -d: -f6)}
VENV=${ARBITRE_VENV:-$TARGET_HOME/.local/share/arbitre/venv}
CONFIG=${ARBITRE_CONFIG:-$TARGET_HOME/.config/arbitre/arbitre.toml}
UNIT_DIR=${ARBITRE_UNIT_DIR:-/etc/systemd/system}
APT_PACKAGES=(python3-venv python3-picamera2 python3-lgpio python3-opencv python3-numpy
  chromium curl)
MARK="# arbitre kiosk"
DRY_RUN=0

usage() {
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
}

run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

as_user() {
  if [ "$(id -un)" = "$TARGET_USER" ]; then
    run "$@"
  else
    run sudo -u "$TARGET_USER" -- "$@"
  fi
}

render_unit() {
  sed -e "s|@USER@|$TARGET_USER|g" -e "s|@HOME@|$TARGET_HOME|g" -e "s|@VENV@|$VENV|g" \
    -e "s|@CONFIG@|$CONFIG|g" -e "s|@REPO@|$REPO|g" "$REPO/hardware/pi/arbitre.service"
}

step_apt() {
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${APT_PACKAGES[@]}"
}

step_venv() {
  # --system-site-packages: picamera2, libcamera, lgpio and OpenCV come from apt, built for this Pi.
  [ -x "$VENV/bin/python" ] || as_user python3 -m venv --system-site-packages "$VENV"
  as_user "$VENV/bin/pip" install --quiet --upgrade pip
  # [kiosk,hardware] only: numpy and OpenCV from apt match picamera2's; pip's wheels may not.
  as_user "$VENV/bin/pip" install --quiet -e "${REPO}[kiosk,hardware]"
}

step_config() {
  if [ -e "$CONFIG" ]; then
    echo "config: keeping $CONFIG"
    return
  fi
  as_user mkdir -p "$(dirname "$CONFIG")"
  as_user cp "$REPO/arbitre.example.toml" "$CONFIG"
}

step_groups() {
  local group
  for group in gpio video dialout; do
    if getent group "$group" >/dev/null; then
      run usermod -aG "$group" "$TARGET_USER"
    fi
  done
}

step_service() {
  if [ "$DRY_RUN" = 1 ]; then
    echo "+ render_unit > $UNIT_DIR/arbitre.service"
  else
    render_unit >"$UNIT_DIR/arbitre.service"
  fi
  run systemctl daemon-reload
  run systemctl enable --now arbitre.service
}

step_kiosk() {
  local autostart="$TARGET_HOME/.config/labwc/autostart"
  local line="$REPO/hardware/pi/kiosk.sh &  $MARK"
  if [ -f "$autostart" ] && grep -qF "$MARK" "$autostart"; then
    echo "kiosk: $autostart already starts it"
    return
  fi
  as_user mkdir -p "$(dirname "$autostart")"
  if [ "$DRY_RUN" = 1 ]; then
    echo "+ echo '$line' >> $autostart"
  else
    echo "$line" | as_user tee -a "$autostart" >/dev/null
  fi
}

step_blanking() {
  if command -v raspi-config >/dev/null; then
    run raspi-config nonint do_blanking 1 # 1 = blanking off (raspi-config: 0 is yes)
  else
    echo "blanking: no raspi-config here; turn screen blanking off in the desktop settings"
  fi
}

main() {
  case "${1:-}" in
    --dry-run) DRY_RUN=1 ;;
    --print-unit)
      render_unit
      return
      ;;
    -h | --help)
      usage
      return
      ;;
    "") ;;
    *)
      echo "unknown option $1 (expected --dry-run, --print-unit or --help)" >&2
      return 2
      ;;
  esac
  if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "run it with sudo (it installs packages and a service), or try --dry-run" >&2
    return 1
  fi
  if [ -z "$TARGET_HOME" ]; then
    echo "no home directory for user $TARGET_USER (set ARBITRE_USER)" >&2
    return 1
  fi
  step_apt
  step_venv
  step_config
  step_groups
  step_service
  step_kiosk
  step_blanking
  echo "done: the table starts at boot; now run $VENV/bin/arbitre doctor (after a reboot)"
}

main "$@"
