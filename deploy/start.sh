#!/bin/sh
# Starts one instance of the site: the standalone Next server (server.js in the working directory) on
# 127.0.0.1:PORT, behind nginx. systemd runs it as `start.sh PORT` (deploy/site@.service); by hand:
#
#   cd /opt/site/app && set -a && . /etc/site/site.env && set +a && /opt/site/start.sh 3001
#
# Restarting it after a crash is the supervisor's job (systemd's Restart=on-failure).
set -eu

PORT="${1:?usage: start.sh PORT (the instance's port on 127.0.0.1)}"
[ -f server.js ] || { echo "start.sh: no server.js in $(pwd): run it in the standalone folder" >&2; exit 1; }

export PORT
# Loopback only: nginx is the one way in.
export HOSTNAME=127.0.0.1
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1
# nginx replaces X-Forwarded-For with the address it saw: believe that one entry.
export TRUSTED_PROXY_HOPS="${TRUSTED_PROXY_HOPS:-1}"

exec node server.js
