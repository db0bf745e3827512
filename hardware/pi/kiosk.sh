#!/usr/bin/env bash
# Started by labwc at login (install.sh adds it to ~/.config/labwc/autostart): wait until the
# Arbitre app answers, then show its table page full screen in Chromium.
set -u

BASE=${ARBITRE_URL:-http://localhost:8000}
WAIT=${ARBITRE_WAIT_SECONDS:-300}

answers() {
  # The health endpoint, or any page of the app if this version has none.
  curl -fsS -o /dev/null --max-time 2 "$BASE/api/health" ||
    curl -fsS -o /dev/null --max-time 2 "$BASE/api/state"
}

waited=0
until answers; do
  if [ "$waited" -ge "$WAIT" ]; then
    echo "arbitre-kiosk: $BASE did not answer in ${WAIT}s (journalctl -u arbitre)" >&2
    break
  fi
  sleep 1
  waited=$((waited + 1))
done

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "arbitre-kiosk: chromium is not installed (sudo apt install chromium)" >&2
  exit 1
fi
exec "$browser" --kiosk --noerrdialogs --disable-infobars --no-first-run \
  --disable-session-crashed-bubble --disable-features=Translate --password-store=basic \
  --check-for-update-interval=31536000 --ozone-platform=wayland "$BASE/"
