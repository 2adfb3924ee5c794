#!/bin/sh
# The kiosk: waits until croupier's display answers (after a reboot the controller may still be
# recovering its journal), then shows it full screen. CROUPIER_DISPLAY_URL comes from
# /etc/croupier/kiosk.env (install.sh writes the default; change it with the config's http.port).
set -eu
url="${CROUPIER_DISPLAY_URL:-http://127.0.0.1:8080/}"
until curl -fsS -o /dev/null --max-time 2 "$url"; do sleep 1; done
browser="$(command -v chromium || command -v chromium-browser)"
# No first-run page, no crash bubble after a power cut, no translate bar, no pinch zoom or swipe back
# on the touch screen, no password store; the dealer only touches the display's own buttons.
exec cage -- "$browser" --kiosk --noerrdialogs --disable-infobars --no-first-run \
  --disable-session-crashed-bubble --disable-translate --disable-features=Translate \
  --overscroll-history-navigation=0 --disable-pinch --password-store=basic \
  --check-for-update-interval=31536000 --ozone-platform=wayland "$url"
