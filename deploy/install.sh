#!/usr/bin/env bash
# Installs croupier on a table's Raspberry Pi (Raspberry Pi OS or Debian 12, arm64), from an unpacked
# croupier release or checkout:
#
#   sudo bash deploy/install.sh --table table-7 --reader 2e8a:000a --shuffler 0403:6001 --keypad 1209:0001
#
# It installs the system packages (Node.js 20 when absent, libusb, the toolchain better-sqlite3 builds
# with when its prebuilt binary cannot be downloaded, Chromium and cage for the kiosk), builds this
# release into /opt/croupier/releases/ and points /opt/croupier/current at it, creates the unprivileged
# users croupier (the controller) and croupier-kiosk (the browser), names the devices by their USB ids
# (/dev/croupier/reader, /dev/croupier/shuffler, the keypad's hidraw node), writes
# /etc/croupier/croupier.yaml from the template, enables and (re)starts the services, and ends with
# `croupier doctor`. Run again, with or without the options (they are remembered in
# /etc/croupier/install.env), it upgrades in place: the config and the journal are kept as they are.
#
# Every system command is called by name, so that a test can stand fakes in for them on PATH, and every
# file is written under CROUPIER_ROOT (empty: /). CROUPIER_SOURCE is the tree to install (default: the
# one holding this script).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: sudo bash deploy/install.sh [--table ID] [--reader VID:PID[:SERIAL]] [--shuffler VID:PID[:SERIAL]]
                                   [--keypad VID:PID[:SERIAL]] [--badge VID:PID[:SERIAL]]
                                   [--ups-gpio PIN] [--no-kiosk | --kiosk]
  --table     the table's id (MQTT topics croupier/v1/<id>/…); needed the first time
  --reader    the RFID reader board's USB ids, as lsusb prints them (--reader 2e8a:000a); the serial
              number (lsusb -v, iSerial) tells two alike apart. "none": no such device
  --shuffler  the shuffler's USB-serial adapter
  --keypad    the dealer keypad (USB HID)
  --badge     the supervisors' badge reader (USB HID)
  --ups-gpio  the GPIO pin a UPS hat pulls low to ask for a shutdown (dtoverlay=gpio-shutdown)
  --no-kiosk  no browser on the Pi's screen (the display is opened elsewhere)
Options not given keep the value of the last run.
EOF
}

ROOT="${CROUPIER_ROOT:-}"
DEPLOY="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="${CROUPIER_SOURCE:-$(dirname "$DEPLOY")}"
APP=/opt/croupier
ETC=/etc/croupier
STATE=/var/lib/croupier
SAVED="$ETC/install.env"
# Releases kept for a rollback (`ln -sfn /opt/croupier/releases/… /opt/croupier/current`).
KEEP_RELEASES=3
export DEBIAN_FRONTEND=noninteractive

say() { printf 'croupier install: %s\n' "$*"; }
die() {
  printf 'croupier install: %s\n' "$*" >&2
  exit 2
}

TABLE=""
# shellcheck disable=SC2034 # the devices are read by name: ${!name}
READER="" SHUFFLER="" KEYPAD="" BADGE=""
UPS_GPIO=""
KIOSK=yes

parse_options() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --table | --reader | --shuffler | --keypad | --badge | --ups-gpio)
        [ $# -ge 2 ] || die "$1 needs a value"
        local name="${1#--}"
        name="${name//-/_}"
        printf -v "${name^^}" '%s' "$2"
        shift 2
        ;;
      --no-kiosk) KIOSK=no && shift ;;
      --kiosk) KIOSK=yes && shift ;;
      -h | --help) usage && exit 0 ;;
      *) usage >&2 && die "unknown option $1" ;;
    esac
  done
}

# The ids go into udev rules and YAML: only what lsusb prints is taken.
check_options() {
  [ -n "$TABLE" ] || die "--table is needed the first time (e.g. --table table-7)"
  [[ "$TABLE" =~ ^[A-Za-z0-9_-]{1,32}$ ]] || die "--table: 1 to 32 letters, digits, - or _"
  local name
  for name in READER SHUFFLER KEYPAD BADGE; do
    [ "${!name}" = none ] && printf -v "$name" '%s' ""
    [ -z "${!name}" ] && continue
    [[ "${!name}" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}(:[A-Za-z0-9._-]+)?$ ]] ||
      die "--${name,,} ${!name}: give VID:PID as lsusb prints them, then :SERIAL if need be (0403:6001:A50285BI)"
    local vid_pid="${!name:0:9}"
    printf -v "$name" '%s' "${vid_pid,,}${!name:9}"
  done
  [[ -z "$UPS_GPIO" || "$UPS_GPIO" =~ ^[0-9]{1,2}$ ]] || die "--ups-gpio: a GPIO number (e.g. 3)"
  alike READER SHUFFLER
  alike KEYPAD BADGE
}

# Two devices udev cannot tell apart would swap names at each plug-in.
alike() {
  local a="${!1}" b="${!2}"
  [ -n "$a" ] && [ -n "$b" ] && [ "${a:0:9}" = "${b:0:9}" ] || return 0
  local serial_a="${a:10}" serial_b="${b:10}"
  if [ -z "$serial_a" ] || [ -z "$serial_b" ] || [ "$serial_a" = "$serial_b" ]; then
    die "the ${1,,} and the ${2,,} are both ${a:0:9}: give each its serial number (--${1,,} ${a:0:9}:SERIAL)"
  fi
}

install_packages() {
  local packages=(ca-certificates curl gnupg libusb-1.0-0 libudev1 build-essential python3)
  [ "$KIOSK" = yes ] && packages+=(chromium cage fonts-dejavu-core)
  say "system packages: ${packages[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}"
}

node_major() {
  local version
  version="$(node -p 'process.versions.node' 2>/dev/null)" || version=0
  echo "${version%%.*}"
}

# Debian 12 ships Node.js 18: NodeSource's repository has 20.
install_node() {
  if [ "$(node_major)" -ge 20 ]; then return; fi
  say "Node.js 20 from NodeSource"
  install -d -m 0755 "$ROOT/etc/apt/keyrings" "$ROOT/etc/apt/sources.list.d"
  curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key |
    gpg --dearmor --yes -o "$ROOT/etc/apt/keyrings/nodesource.gpg"
  echo 'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x nodistro main' \
    >"$ROOT/etc/apt/sources.list.d/nodesource.list"
  apt-get update -qq
  apt-get install -y -qq nodejs
}

# The controller's user may open the table's devices (udev gives them to its group) and write its state
# folder; the kiosk's gets the screen and touch panel from its logind session. Neither can log in.
create_users() {
  id -u croupier >/dev/null 2>&1 ||
    useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
      --comment 'croupier table controller' croupier
  [ "$KIOSK" = yes ] || return 0
  id -u croupier-kiosk >/dev/null 2>&1 ||
    useradd --system --user-group --home-dir /var/lib/croupier-kiosk --no-create-home \
      --shell /usr/sbin/nologin --comment 'croupier kiosk browser' croupier-kiosk
}

# A new folder per run, built there and switched to at once: the running controller keeps its files
# until it restarts, and the previous releases stay for a rollback.
install_release() {
  local version release
  version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$SOURCE/package.json")"
  [ -n "$version" ] || die "$SOURCE/package.json: no version (is CROUPIER_SOURCE a croupier tree?)"
  release="$APP/releases/$version-$(date -u +%Y%m%dT%H%M%SZ)"
  say "croupier $version into $release"
  rm -rf "$ROOT$release"
  install -d -m 0755 "$ROOT$release"
  tar -C "$SOURCE" --exclude=./node_modules --exclude=./.git --exclude=./dist -cf - . | tar -C "$ROOT$release" -xf -
  # The native modules: serialport and node-hid ship arm64 builds; better-sqlite3 downloads its own, or
  # builds from source with the toolchain above when GitHub cannot be reached.
  (cd "$ROOT$release" && npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund)
  # Its time is the install's (tar gave it the source's): the oldest releases go first.
  touch "$ROOT$release"
  ln -sfn "$release" "$ROOT$APP/current.new"
  mv -T "$ROOT$APP/current.new" "$ROOT$APP/current"
  local old
  # shellcheck disable=SC2012 # release names are a version and a time: no odd characters
  for old in $(ls -1dt "$ROOT$APP/releases"/* | tail -n "+$((KEEP_RELEASES + 1))"); do
    rm -rf "$old"
  done
}

# The template with this table's values; a device not given loses its lines (ids in udev rules, or
# the config lines marked #@NAME). $2 is how a serial number is matched in that file.
render() {
  local template="$1" serial_format="$2" script=(-e "s|@TABLE_ID@|$TABLE|g") name vendor product serial
  for name in READER SHUFFLER KEYPAD BADGE; do
    if [ -z "${!name}" ]; then
      script+=(-e "/@${name}_\|#@${name}\$/d")
      continue
    fi
    IFS=: read -r vendor product serial <<<"${!name}"
    # shellcheck disable=SC2059 # the format is the caller's
    [ -z "$serial" ] || serial="$(printf "$serial_format" "$serial")"
    script+=(-e "s| #@${name}\$||" -e "s|@${name}_VENDOR@|$vendor|g" -e "s|@${name}_PRODUCT@|$product|g")
    script+=(-e "s|@${name}_SERIAL@|$serial|g")
  done
  sed "${script[@]}" "$template"
}

# The config, the deck lists and the kiosk's URL are the engineer's once written: never overwritten.
install_config() {
  install -d -m 0750 "$ROOT$ETC" "$ROOT$ETC/decks"
  chown root:croupier "$ROOT$ETC" "$ROOT$ETC/decks"
  if [ -e "$ROOT$ETC/croupier.yaml" ]; then
    say "kept $ETC/croupier.yaml"
  else
    render "$DEPLOY/croupier.yaml.template" ", serialNumber: '%s'" >"$ROOT$ETC/croupier.yaml"
    chmod 0640 "$ROOT$ETC/croupier.yaml"
    chown root:croupier "$ROOT$ETC/croupier.yaml"
    say "wrote $ETC/croupier.yaml for table $TABLE"
  fi
  [ -e "$ROOT$ETC/kiosk.env" ] || echo 'CROUPIER_DISPLAY_URL=http://127.0.0.1:8080/' >"$ROOT$ETC/kiosk.env"
  local name
  {
    echo "# deploy/install.sh's options, reused when it runs again"
    for name in TABLE READER SHUFFLER KEYPAD BADGE UPS_GPIO KIOSK; do printf '%s=%q\n' "$name" "${!name}"; done
  } >"$ROOT$SAVED"
  install -d -m 0750 "$ROOT$STATE"
  chown croupier:croupier "$ROOT$STATE"
}

install_udev_rules() {
  install -d -m 0755 "$ROOT/etc/udev/rules.d"
  render "$DEPLOY/99-croupier.rules" ', ATTRS{serial}=="%s"' >"$ROOT/etc/udev/rules.d/99-croupier.rules"
  udevadm control --reload-rules
  udevadm trigger --subsystem-match=tty --subsystem-match=hidraw --subsystem-match=input
  udevadm settle
}

install_units() {
  install -d -m 0755 "$ROOT/etc/systemd/system" "$ROOT/etc/systemd/journald.conf.d" "$ROOT/usr/local/bin"
  install -m 0644 "$DEPLOY/croupier.service" "$ROOT/etc/systemd/system/croupier.service"
  install -m 0644 "$DEPLOY/journald-croupier.conf" "$ROOT/etc/systemd/journald.conf.d/croupier.conf"
  install -m 0755 "$DEPLOY/croupier.sh" "$ROOT/usr/local/bin/croupier"
  if [ "$KIOSK" = yes ]; then
    install -m 0644 "$DEPLOY/croupier-kiosk.service" "$ROOT/etc/systemd/system/croupier-kiosk.service"
  elif [ -e "$ROOT/etc/systemd/system/croupier-kiosk.service" ]; then
    systemctl disable --now croupier-kiosk.service
    rm -f "$ROOT/etc/systemd/system/croupier-kiosk.service"
  fi
}

# A UPS hat's "power is going" pin, as the kernel's power key: logind shuts the Pi down, systemd stops
# croupier with SIGTERM, and croupier writes its power-off marker before the battery runs out.
ups_shutdown_pin() {
  [ -n "$UPS_GPIO" ] || return 0
  local config_txt="$ROOT/boot/firmware/config.txt" line="dtoverlay=gpio-shutdown,gpio_pin=$UPS_GPIO"
  [ -e "$config_txt" ] || config_txt="$ROOT/boot/config.txt"
  [ -e "$config_txt" ] || die "no /boot/firmware/config.txt: --ups-gpio is for a Raspberry Pi"
  if grep -q '^dtoverlay=gpio-shutdown' "$config_txt"; then
    sed -i "s|^dtoverlay=gpio-shutdown.*|$line|" "$config_txt"
  else
    echo "$line" >>"$config_txt"
  fi
  say "UPS shutdown on GPIO $UPS_GPIO from the next boot"
}

start_services() {
  systemctl daemon-reload
  systemctl restart systemd-journald.service
  local units=(croupier.service)
  [ "$KIOSK" = yes ] && units+=(croupier-kiosk.service)
  systemctl enable "${units[@]}"
  # On a first install croupier waits for its deck lists: doctor says so just below.
  systemctl restart "${units[@]}" || say "croupier did not start: see what croupier doctor says"
}

main() {
  if [ -z "$ROOT" ] && [ "$EUID" -ne 0 ]; then die "run it as root: sudo bash $0 …"; fi
  # shellcheck source=/dev/null
  [ -r "$ROOT$SAVED" ] && source "$ROOT$SAVED"
  parse_options "$@"
  check_options
  install_packages
  install_node
  create_users
  install_release
  install_config
  install_udev_rules
  install_units
  ups_shutdown_pin
  start_services
  say "done; what croupier doctor finds:"
  croupier doctor --config "$ETC/croupier.yaml" || true
}

main "$@"
