#!/usr/bin/env bash
# Validates docs/openapi.yaml with openapi-spec-validator, plus checks a schema cannot make
# (every /v1 operation requires bearerAuth and documents 401/403, unique operationIds,
# declared path parameters), and that Sources/HeraldAPI/Resources/openapi.yaml, the resource
# served at GET /openapi.yaml, has the same bytes (docs/openapi.yaml links to it). One line per
# check; exits non-zero on problems.
#
# Usage: scripts/validate-openapi.sh [--self-test]
#   --self-test    also prove the checks fail on deliberately broken copies
#
# Needs python3 and PyPI (first run only): tools go to .venv-openapi/ (gitignored); a stamp
# of the pinned requirements makes later runs skip pip entirely.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${HERALD_OPENAPI_VENV:-$repo/.venv-openapi}"

requirements=(
    "openapi-spec-validator==0.9.0"
    "PyYAML==6.0.3"
)

stamp="$venv/.herald-requirements"
wanted="$(printf '%s\n' "${requirements[@]}")"
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$wanted" ]]; then
    echo "setting up $venv (once)" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
    printf '%s' "$wanted" > "$stamp"
fi

exec "$venv/bin/python" "$repo/scripts/validate_openapi.py" --root "$repo" "$@"
