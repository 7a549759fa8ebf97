"""Validates docs/openapi.yaml and checks the HTTP API serves it.

Checks, one line each on stdout, exit status 1 when any fails:
  - the document is valid OpenAPI (openapi-spec-validator, 3.0 or 3.1 by its version),
  - every operation has a unique operationId and at least one 2xx response,
  - every operation under /v1 requires bearerAuth, documents 401 and 403, and
    every path parameter it names is declared,
  - Sources/HeraldAPI/Resources/openapi.yaml (the resource served at GET /openapi.yaml)
    has exactly these bytes (docs/openapi.yaml is a link to it).

Usage: validate_openapi.py --root REPO [--self-test]
  --self-test    also prove the checks fail on deliberately broken copies
"""

import argparse
import copy
import re
import sys
from pathlib import Path

import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
RESOURCE_PATH = "Sources/HeraldAPI/Resources/openapi.yaml"


def problems(document) -> list[str]:
    """Everything wrong with a parsed document, empty when it is fine."""
    found = []
    try:
        validate(document)
    except OpenAPIValidationError as error:
        found.append(f"not valid OpenAPI: {error.message} at {'/'.join(str(p) for p in error.path)}")
    except Exception as error:  # the validator's other failures (bad $ref…)
        found.append(f"not valid OpenAPI: {error}")
    operation_ids = {}
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict):
            found.append(f"{path}: not an object")
            continue
        declared = {p.get("name") for p in item.get("parameters", []) if isinstance(p, dict)}
        declared |= {resolve(document, p).get("name") for p in item.get("parameters", []) if "$ref" in p}
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            where = f"{method.upper()} {path}"
            op_id = operation.get("operationId")
            if not op_id:
                found.append(f"{where}: no operationId")
            elif op_id in operation_ids:
                found.append(f"{where}: operationId {op_id} also used by {operation_ids[op_id]}")
            else:
                operation_ids[op_id] = where
            responses = operation.get("responses") or {}
            if not any(str(code).startswith("2") for code in responses):
                found.append(f"{where}: no 2xx response")
            if path.startswith("/v1/"):
                security = operation.get("security", document.get("security"))
                if not security or not any("bearerAuth" in requirement for requirement in security):
                    found.append(f"{where}: does not require bearerAuth")
                for code in ("401", "403"):
                    if code not in {str(c) for c in responses}:
                        found.append(f"{where}: does not document {code}")
                names = declared | {
                    (resolve(document, p) if "$ref" in p else p).get("name") for p in operation.get("parameters", [])
                }
                for name in re.findall(r"\{([^}]+)\}", path):
                    if name not in names:
                        found.append(f"{where}: path parameter {name} is not declared")
    return found


def resolve(document, node):
    ref = node.get("$ref", "")
    if not ref.startswith("#/"):
        return node
    for part in ref[2:].split("/"):
        document = document.get(part, {})
    return document


def self_test(document) -> list[str]:
    """Broken copies the checks must refuse; returns the ones they accepted."""
    broken = []
    missing_ref = copy.deepcopy(document)
    missing_ref["paths"]["/v1/containers/{container}/badge"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["$ref"] = "#/components/schemas/NoSuchSchema"
    broken.append(("a dangling $ref", missing_ref))
    open_route = copy.deepcopy(document)
    open_route["paths"]["/v1/containers/{container}/badge"]["get"]["security"] = []
    broken.append(("a /v1 operation without bearerAuth", open_route))
    no_version = copy.deepcopy(document)
    del no_version["openapi"]
    broken.append(("no openapi version", no_version))
    undeclared = copy.deepcopy(document)
    undeclared["paths"]["/v1/containers/{container}/{database}/subscriptions"]["parameters"].pop()
    broken.append(("an undeclared path parameter", undeclared))
    return [name for name, doc in broken if not problems(doc)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()

    yaml_path = args.root / "docs/openapi.yaml"
    resource_path = args.root / RESOURCE_PATH
    text = yaml_path.read_text(encoding="utf-8")
    document = yaml.safe_load(text)
    failed = False

    found = problems(document)
    for problem in found:
        print(f"docs/openapi.yaml: {problem}")
    if not found:
        operations = sum(1 for item in document["paths"].values() for m in METHODS if m in item)
        print(f"docs/openapi.yaml: valid OpenAPI {document['openapi']}, {len(document['paths'])} paths, {operations} operations")
    failed |= bool(found)

    if not resource_path.exists() or resource_path.read_bytes() != yaml_path.read_bytes():
        print(f"{RESOURCE_PATH}: not the bytes of docs/openapi.yaml, which must link to it: ln -sf ../{RESOURCE_PATH} docs/openapi.yaml")
        failed = True
    else:
        print(f"{RESOURCE_PATH}: is docs/openapi.yaml")

    if args.self_test:
        accepted = self_test(document)
        for name in accepted:
            print(f"self-test: {name} was not caught")
        if not accepted:
            print("self-test: every broken copy was refused")
        failed |= bool(accepted)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
