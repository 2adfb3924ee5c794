#!/bin/sh
# ExecStartPre of croupier.service: the backoff systemd 252 lacks (RestartSteps= came in 254). Each start
# within 5 minutes of the previous one waits twice as long as the last, 1 s up to 60 s; a start after a
# longer run waits nothing. The count lives in /run, so a boot starts afresh.
set -eu
state="${RUNTIME_DIRECTORY:-/run/croupier}/starts"
now="$(date +%s)"
count=0
last=0
if [ -r "$state" ]; then read -r count last <"$state" || true; fi
# A damaged count is no reason to keep the table down.
case "${count:-x}${last:-x}" in *[!0-9]*) count=0 last=0 ;; esac
if [ $((now - last)) -gt 300 ]; then count=0; fi
echo "$((count + 1)) $now" >"$state"
if [ "$count" -eq 0 ]; then exit 0; fi
delay=1
while [ "$count" -gt 1 ] && [ "$delay" -lt 60 ]; do
  delay=$((delay * 2))
  count=$((count - 1))
done
if [ "$delay" -gt 60 ]; then delay=60; fi
echo "croupier restarts again within 5 minutes: waiting ${delay} s"
exec sleep "$delay"
