#!/usr/bin/env bash
# Checks the running HTTP API against docs/openapi.yaml with schemathesis (property-based:
# generated requests, response schemas, status codes, content types, SSE events).
# Starts `herald run` on the embedded broker, on a free port, with a throw-away data dir.
#   HERALD=.build/debug/herald scripts/check-api-live.sh
set -euo pipefail
cd "$(dirname "$0")/.."
herald="${HERALD:-.build/debug/herald}"
venv=".venv-schemathesis"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "setting up $venv (once)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
data="$(mktemp -d)"
log="$data/herald.log"
"$herald" run --http-host 127.0.0.1 --http-port "$port" --data-dir "$data/store" --instance-id api-check >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 150); do
  curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null || { echo "herald did not become ready:"; tail -20 "$log"; exit 1; }
container="iCloud.com.example.check"
token="$("$herald" token issue --user _check --container "$container")"
config="$data/schemathesis.toml"
printf '[parameters]\n"path.container" = "%s"\n' "$container" >"$config"
# A schedule without a fire date (or with one in the past) fires at once and, fired, is no
# longer pending: its GET answers 404 as soon as the schedule stage has consumed it (as iOS
# drops a fired one-shot local notification from scheduledLocalNotifications). So "a
# created resource is readable right after" does not hold for schedules: that check is off
# for them alone (it failed a run where the stage was quicker than the GET).
cat >>"$config" <<'TOML'

[[operations]]
include-path-regex = "/schedules"
checks.ensure_resource_availability.enabled = false
TOML
# Left out on purpose: positive_data_acceptance (the API validates beyond the schema: signed
# change tokens, subscription types per database). unsupported_method runs: every known
# path answers an undeclared method with 405, the JSON error body and Allow.
"$venv/bin/schemathesis" --config-file "$config" run docs/openapi.yaml --url "http://127.0.0.1:$port" \
  -H "Authorization: Bearer $token" --max-examples "${API_CHECK_EXAMPLES:-10}" --seed 42 \
  --exclude-checks positive_data_acceptance
echo "api: live server conforms to docs/openapi.yaml"
