#!/usr/bin/env bash
# Checks the packaging in deploy/ as far as this machine allows:
# - the unit's LimitNOFILE leaves room for event streams and clients (at least 4096);
# - the systemd unit with `systemd-analyze verify` (any warning fails: verify itself exits 0
#   on unknown keys and bad values), its ExecStart pointed at the binary just built;
# - the Dockerfile with `docker build` when a Docker daemon answers (it is absent on the CI
#   machine; then this says so and the unit check still runs).
# Usage: scripts/check_deploy.sh [path/to/donna]   (default target/debug/donna)
set -euo pipefail
cd "$(dirname "$0")/.."

# Room for descriptors: open event streams (http.max_event_streams) and clients must not starve
# /health/live at the distribution's default of 1024.
nofile="$(sed -n 's/^LimitNOFILE=\([0-9]*\)$/\1/p' deploy/donna.service)"
if [ -z "$nofile" ] || [ "$nofile" -lt 4096 ]; then
  echo "check_deploy: deploy/donna.service must set LimitNOFILE to a number of at least 4096 (found: ${nofile:-none})"
  exit 1
fi
echo "check_deploy: deploy/donna.service sets LimitNOFILE=$nofile"
binary="$(realpath "${1:-target/debug/donna}")"
[ -x "$binary" ] || { echo "check_deploy: no binary at $binary (cargo build first)"; exit 1; }

if ! command -v systemd-analyze >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "check_deploy: installing systemd (for systemd-analyze)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null; } \
    || true
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  sed "s|^ExecStart=/usr/local/bin/donna |ExecStart=$binary |" deploy/donna.service > "$work/donna.service"
  grep -q "^ExecStart=$binary " "$work/donna.service" || { echo "check_deploy: ExecStart not found in deploy/donna.service"; exit 1; }
  output="$(systemd-analyze verify "$work/donna.service" 2>&1)" || { echo "$output"; exit 1; }
  if [ -n "$output" ]; then
    echo "check_deploy: systemd-analyze verify deploy/donna.service:"
    echo "$output"
    exit 1
  fi
  echo "check_deploy: deploy/donna.service verified by systemd-analyze"
else
  echo "check_deploy: NOT CHECKED: systemd-analyze is not available here"
fi

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  docker build -q -f deploy/Dockerfile -t donna-check . >/dev/null
  docker run --rm donna-check config default >/dev/null
  echo "check_deploy: deploy/Dockerfile built; the image runs donna"
else
  echo "check_deploy: NOT BUILT: no Docker daemon here (deploy/Dockerfile)"
fi
