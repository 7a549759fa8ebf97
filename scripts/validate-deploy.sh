#!/usr/bin/env bash
# Validates the deployment files without a container engine or a cluster:
#   - deploy/*.yaml against the Kubernetes OpenAPI schemas (kubernetes-validate, strict),
#   - docker-compose.yml against the Compose specification JSON schema,
#   - Dockerfile by parsing it,
# plus checks no schema can make (probes, KRaft, non-root…). One line per file; exits
# non-zero if any file is invalid.
#
# Usage: scripts/validate-deploy.sh [--root DIR] [--self-test]
#   --root DIR    validate DIR/{Dockerfile,docker-compose.yml,deploy/} instead of the repo
#   --self-test   also prove the validator fails on deliberately broken copies
#
# Needs python3 and PyPI (first run only): tools go to .venv-deploy/ (gitignored); a stamp
# of the pinned requirements makes later runs skip pip entirely.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${HERALD_DEPLOY_VENV:-$repo/.venv-deploy}"

# Pinned tool versions; the Kubernetes schema version is pinned in validate_deploy.py.
requirements=(
    "kubernetes-validate==1.37.0"
    "jsonschema==4.26.0"
    "PyYAML==6.0.3"
    "dockerfile-parse==2.0.1"
)
# The Compose specification schema ships inside docker-compose 1.x's wheel
# (compose/config/compose_spec.json, draft 2019-09); it is downloaded, never installed.
compose_wheel="docker-compose==1.29.2"

stamp="$venv/.herald-requirements"
wanted="$(printf '%s\n' "${requirements[@]}" "$compose_wheel")"
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$wanted" ]]; then
    echo "setting up $venv (once)" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
    rm -rf "$venv/compose-wheel"
    "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
        --dest "$venv/compose-wheel" "$compose_wheel"
    "$venv/bin/python" - "$venv" <<'PY'
import glob, sys, zipfile
venv = sys.argv[1]
wheel = glob.glob(f"{venv}/compose-wheel/docker_compose-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(f"{venv}/compose_spec.json", "wb") as out:
    out.write(z.read("compose/config/compose_spec.json"))
PY
    printf '%s' "$wanted" > "$stamp"
fi

exec "$venv/bin/python" "$repo/scripts/validate_deploy.py" --compose-schema "$venv/compose_spec.json" --root "$repo" "$@"
