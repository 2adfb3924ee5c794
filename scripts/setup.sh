#!/usr/bin/env bash
# Sets up what croupier and its tests need on a Debian machine (the Pi, a developer's, CI's):
# the system packages the tests use as real peers, then the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v socat >/dev/null || missing+=(socat)         # pseudo-terminal pairs for simulated serial devices
command -v setpriv >/dev/null || missing+=(util-linux)  # starts socat so that it dies with its parent
command -v mosquitto >/dev/null || missing+=(mosquitto) # an external MQTT broker, as a casino runs one
[ -x /usr/bin/chromium ] || missing+=(chromium)          # the kiosk browser: the display's tests drive it
command -v shellcheck >/dev/null || missing+=(shellcheck)  # the Pi install scripts' lint (test/deploy)
command -v systemd-analyze >/dev/null || missing+=(systemd) # verifies the Pi's unit files (test/deploy)
[ -e /usr/lib/x86_64-linux-gnu/libusb-1.0.so.0 ] || [ -e /usr/lib/aarch64-linux-gnu/libusb-1.0.so.0 ] || missing+=(libusb-1.0-0) # node-hid's USB HID backend
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

npm ci
