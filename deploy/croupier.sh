#!/bin/sh
# croupier's command line on the Pi (/usr/local/bin/croupier). Run by root, it runs as the controller's
# user, so that `croupier doctor` checks the devices, journal and config as the service sees them.
if [ "$(id -u)" -eq 0 ]; then exec runuser -u croupier -- "$0" "$@"; fi
exec /usr/bin/node /opt/croupier/current/bin/croupier.js "$@"
