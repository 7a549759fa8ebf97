#!/usr/bin/env python3
"""Validate Herald's deployment files offline; run through scripts/validate-deploy.sh.

Kubernetes manifests: strict OpenAPI schemas of a pinned Kubernetes version
(kubernetes-validate), plus Herald's rules. Compose: the Compose specification JSON schema,
plus KRaft and start-order rules. Dockerfile: parsed, plus build/runtime rules.
Prints one line per file and exits 1 when any file is invalid.
"""

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import jsonschema
import kubernetes_validate
import yaml
from dockerfile_parse import DockerfileParser

KUBERNETES_VERSION = "1.31.0"
NAMESPACE = "herald"
LIVE, READY = "/health/live", "/health/ready"
CLUSTER_SCOPED = {"Namespace"}
# Custom resources Herald ships, checked by herald_rules instead of a Kubernetes schema.
CUSTOM_KINDS = {("keda.sh/v1alpha1", "ScaledObject")}
# Environment variables `herald run --brokers` requires, by the stage that needs them. The
# validator reads the names from Sources/herald/Options/Secrets.swift (REQUIRED_SOURCE) and
# fails when they drift apart, so a new required variable cannot ship unprovided.
STAGE_REQUIREMENTS = {"reader": ("HERALD_TOKEN_KEY", "HERALD_JWT_SECRET")}
ALL_STAGES = ("match", "compose", "reader", "schedule", "assets")
REQUIRED_SOURCE = "Sources/herald/Options/Secrets.swift"


# ---- Kubernetes --------------------------------------------------------------------------

def pod_rules(kind, name, pod_spec, context):
    """Herald's rules for the pods of a Deployment or StatefulSet."""
    errors = []
    where = f"{kind}/{name}"
    security = pod_spec.get("securityContext") or {}
    if security.get("runAsNonRoot") is not True:
        errors.append(f"{where}: spec.template.spec.securityContext.runAsNonRoot must be true")
    if "terminationGracePeriodSeconds" not in pod_spec:
        errors.append(f"{where}: set terminationGracePeriodSeconds for a graceful shutdown")
    for container in pod_spec.get("containers") or []:
        cname = f"{where} container {container.get('name')}"
        for probe, path in (("livenessProbe", LIVE), ("readinessProbe", READY)):
            got = ((container.get(probe) or {}).get("httpGet") or {}).get("path")
            if got != path:
                errors.append(f"{cname}: {probe} must be an httpGet on {path}, got {got!r}")
        csec = container.get("securityContext") or {}
        if csec.get("readOnlyRootFilesystem") is not True:
            errors.append(f"{cname}: securityContext.readOnlyRootFilesystem must be true")
        if csec.get("allowPrivilegeEscalation") is not False:
            errors.append(f"{cname}: securityContext.allowPrivilegeEscalation must be false")
        if not (container.get("resources") or {}).get("requests"):
            errors.append(f"{cname}: resources.requests must be set")
        errors += container_env_rules(cname, container, context["secrets"])
    return errors


def required_environment_in_source(root):
    """The HERALD_* variables Secrets.swift requires with --brokers; None when the file is absent."""
    import re
    path = root / REQUIRED_SOURCE
    if not path.is_file():
        return None
    return set(re.findall(r'environment: "(HERALD_[A-Z_]+)"', path.read_text()))


def run_stages(args):
    """The stages a `herald run` argument list starts, or None when it is not `run --brokers`."""
    if not args or args[0] != "run" or "--brokers" not in args:
        return None
    stages = "all"
    for flag, value in zip(args, args[1:]):
        if flag == "--stages":
            stages = value
    return list(ALL_STAGES) if stages == "all" else [s.strip() for s in stages.split(",")]


def required_for(stages):
    return sorted({name for stage in stages for name in STAGE_REQUIREMENTS.get(stage, ())})


def container_env_rules(where, container, secrets):
    """Every variable the container's `herald run` needs is set, from a Secret key that exists."""
    errors = []
    stages = run_stages([str(a) for a in container.get("args") or []])
    if stages is None:
        return errors
    env = {e.get("name"): e for e in container.get("env") or []}
    for name in required_for(stages):
        entry = env.get(name)
        if entry is None:
            errors.append(f"{where}: runs stages {','.join(stages)} with --brokers, which requires ${name}: "
                          f"add it from a Secret (env[].valueFrom.secretKeyRef)")
            continue
        ref = (entry.get("valueFrom") or {}).get("secretKeyRef")
        if ref is None:
            errors.append(f"{where}: ${name} is a secret: take it from a Secret (valueFrom.secretKeyRef), not a literal")
        elif ref.get("key") not in secrets.get(ref.get("name"), set()):
            errors.append(f"{where}: ${name} refers to Secret {ref.get('name')!r} key {ref.get('key')!r}, "
                          f"which no manifest in deploy/ provides")
    return errors


def herald_rules(doc, context):
    kind, meta = doc.get("kind"), doc.get("metadata") or {}
    name = meta.get("name")
    errors = []
    if kind not in CLUSTER_SCOPED and meta.get("namespace") != NAMESPACE:
        errors.append(f"{kind}/{name}: metadata.namespace must be {NAMESPACE!r}")
    spec = doc.get("spec") or {}
    if kind in ("Deployment", "StatefulSet"):
        errors += pod_rules(kind, name, (spec.get("template") or {}).get("spec") or {}, context)
    if kind == "StatefulSet":
        claims = [t.get("metadata", {}).get("name") for t in spec.get("volumeClaimTemplates") or []]
        mounts = [m for c in spec.get("template", {}).get("spec", {}).get("containers", [])
                  for m in c.get("volumeMounts") or [] if m.get("name") in claims]
        if not any(m.get("mountPath") == "/var/lib/herald" for m in mounts):
            errors.append(f"{kind}/{name}: needs a volumeClaimTemplate mounted at /var/lib/herald")
    if kind == "HorizontalPodAutoscaler":
        errors.append(f"{kind}/{name}: the workers scale with KEDA (worker-scaledobject.yaml), which owns their HPA")
    if kind == "ScaledObject":
        errors += scaled_object_rules(name, spec, context)
    return errors


SCALED_OBJECT_KEYS = {"scaleTargetRef", "pollingInterval", "cooldownPeriod", "idleReplicaCount", "minReplicaCount",
                      "maxReplicaCount", "fallback", "advanced", "triggers"}
KAFKA_TRIGGER_KEYS = {"bootstrapServers", "consumerGroup", "topic", "lagThreshold", "activationLagThreshold",
                      "offsetResetPolicy", "allowIdleConsumers", "scaleToZeroOnInvalidOffset", "excludePersistentLag",
                      "limitToPartitionsWithLag", "partitionLimitation", "sasl", "tls", "version"}


def scaled_object_rules(name, spec, context):
    """KEDA's ScaledObject (no Kubernetes schema covers it): its shape, and that it scales the
    worker on the lag of every consumer group the worker runs, against the configured brokers."""
    where = f"ScaledObject/{name}"
    errors = [f"{where}: spec.{key} is not a ScaledObject field" for key in sorted(set(spec) - SCALED_OBJECT_KEYS)]
    target = spec.get("scaleTargetRef") or {}
    deployment = context["deployments"].get(target.get("name"))
    if target.get("kind", "Deployment") != "Deployment" or deployment is None:
        errors.append(f"{where}: spec.scaleTargetRef must name a Deployment of deploy/, got {target.get('name')!r}")
    low, high = spec.get("minReplicaCount", 0), spec.get("maxReplicaCount", 100)
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high):
        errors.append(f"{where}: need 0 <= minReplicaCount <= maxReplicaCount, got {low!r}, {high!r}")
    elif context["partitions"] and high > context["partitions"]:
        errors.append(f"{where}: maxReplicaCount {high} exceeds the {context['partitions']} partitions per topic")
    groups = set()
    for index, trigger in enumerate(spec.get("triggers") or []):
        at = f"{where}: spec.triggers[{index}]"
        metadata = trigger.get("metadata") or {}
        if trigger.get("type") != "kafka":
            errors.append(f"{at}.type must be kafka, got {trigger.get('type')!r}")
            continue
        errors += [f"{at}.metadata.{key} is not a Kafka scaler parameter" for key in sorted(set(metadata) - KAFKA_TRIGGER_KEYS)]
        if not str(metadata.get("lagThreshold", "")).isdigit() or int(metadata["lagThreshold"]) <= 0:
            errors.append(f"{at}.metadata.lagThreshold must be a positive integer string, got {metadata.get('lagThreshold')!r}")
        if metadata.get("bootstrapServers") != context["config"].get("KAFKA_BROKERS"):
            errors.append(f"{at}.metadata.bootstrapServers must equal the ConfigMap's KAFKA_BROKERS")
        groups.add(metadata.get("consumerGroup"))
    if deployment is not None:
        prefix = context["config"].get("HERALD_TOPIC_PREFIX", "herald.")
        stages = set()
        for container in deployment:
            stages |= set(run_stages([str(a) for a in container.get("args") or []]) or [])
        wanted = {prefix + stage for stage in stages}
        if wanted - groups:
            errors.append(f"{where}: no trigger for the consumer groups {sorted(wanted - groups)} the worker runs")
        if groups - wanted:
            errors.append(f"{where}: triggers for groups the worker does not run: {sorted(g or '' for g in groups - wanted)}")
    return errors


def check_manifest(path, context):
    """Returns (errors, summary) for one manifest file (one or more documents)."""
    errors, objects = [], []
    try:
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    except yaml.YAMLError as error:
        return [f"not valid YAML: {error}"], ""
    if not docs:
        return ["no Kubernetes object in file"], ""
    for doc in docs:
        if not isinstance(doc, dict):
            errors.append("a document is not a mapping")
            continue
        label = f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
        objects.append(label)
        if (doc.get("apiVersion"), doc.get("kind")) in CUSTOM_KINDS:
            errors += herald_rules(doc, context)
            continue
        try:
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            where = ".".join(str(p) for p in error.path) or "(root)"
            errors.append(f"{label}: {where}: {error.message}")
        except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.InvalidSchemaError) as error:
            errors.append(f"{label}: {error}")
        errors += herald_rules(doc, context)
    kinds = {o.split("/")[0] for o in objects}
    if len(kinds) > 1:
        errors.append(f"one object kind per file, found {sorted(kinds)}")
    return errors, ", ".join(objects)


def check_kustomization(path):
    errors = []
    doc = yaml.safe_load(path.read_text()) or {}
    if doc.get("kind") != "Kustomization":
        errors.append("kind must be Kustomization")
    listed = doc.get("resources") or []
    for resource in listed:
        if not (path.parent / resource).is_file():
            errors.append(f"resources: {resource} does not exist")
    for manifest in sorted(path.parent.glob("*.yaml")):
        if manifest.name != path.name and manifest.name not in listed:
            errors.append(f"resources: {manifest.name} is not listed")
    return errors, f"{len(listed)} resources"


# ---- Compose -----------------------------------------------------------------------------

def environment(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {k: str(v) for k, v in env.items()}


def compose_rules(doc):
    errors = []
    services = doc.get("services") or {}
    kafka = services.get("kafka")
    if kafka is None:
        return ["services.kafka is missing"]
    env = environment(kafka)
    if not str(kafka.get("image", "")).startswith("apache/kafka"):
        errors.append("services.kafka.image must be the official apache/kafka image")
    roles = {r.strip() for r in env.get("KAFKA_PROCESS_ROLES", "").split(",")}
    if not {"broker", "controller"} <= roles:
        errors.append("services.kafka: KRaft needs KAFKA_PROCESS_ROLES=broker,controller")
    for key in ("KAFKA_NODE_ID", "KAFKA_CONTROLLER_QUORUM_VOTERS", "KAFKA_CONTROLLER_LISTENER_NAMES", "KAFKA_LISTENERS"):
        if key not in env:
            errors.append(f"services.kafka.environment.{key} is required in KRaft mode")
    if "healthcheck" not in kafka:
        errors.append("services.kafka.healthcheck is required (others wait for service_healthy)")
    if "zookeeper" in json.dumps(doc).lower():
        errors.append("ZooKeeper found: Kafka must run in KRaft mode")
    topics = services.get("topics") or {}
    if topics.get("command", [])[:2] != ["topics", "--ensure"]:
        errors.append("services.topics must run `herald topics --ensure`")
    for name in ("herald-worker", "herald-reader"):
        service = services.get(name)
        if service is None:
            errors.append(f"services.{name} is missing")
            continue
        condition = ((service.get("depends_on") or {}).get("topics") or {}).get("condition")
        if condition != "service_completed_successfully":
            errors.append(f"services.{name}.depends_on.topics.condition must be service_completed_successfully")
        if READY not in json.dumps(service.get("healthcheck") or {}):
            errors.append(f"services.{name}.healthcheck must probe {READY}")
    for name, service in services.items():
        stages = run_stages([str(a) for a in service.get("command") or []])
        provided = environment(service)
        for variable in required_for(stages or []):
            if not provided.get(variable):
                errors.append(f"services.{name} runs stages {','.join(stages)} with --brokers, "
                              f"which requires environment.{variable}")
    return errors


def check_compose(path, schema):
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        return [f"not valid YAML: {error}"], ""
    validator = jsonschema.Draft201909Validator(schema)
    errors = [f"{'.'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}"
              for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]
    if not errors:
        errors += compose_rules(doc)
    return errors, f"{len((doc or {}).get('services') or {})} services"


# ---- Dockerfile --------------------------------------------------------------------------

KNOWN_INSTRUCTIONS = {
    "FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME", "USER",
    "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL", "COMMENT",
}


def check_dockerfile(path):
    errors = []
    with path.open("rb") as handle:
        instructions = DockerfileParser(fileobj=handle).structure
    unknown = [i for i in instructions if i["instruction"] not in KNOWN_INSTRUCTIONS]
    errors += [f"line {i['startline'] + 1}: unknown instruction {i['instruction']}" for i in unknown]
    stages, current = [], None
    for item in instructions:
        if item["instruction"] == "FROM":
            current = []
            stages.append(current)
        elif current is not None:
            current.append(item)
    if len(stages) < 2:
        return errors + ["must be multi-stage (builder + runtime)"], ""
    builder = " ".join(i["value"] for i in stages[0])
    for needle in ("librdkafka-dev", "libsqlite3-dev", "pkg-config", "--product herald", "--static-swift-stdlib"):
        if needle not in builder:
            errors.append(f"builder stage: {needle!r} missing")
    runtime = stages[-1]
    runtime_text = " ".join(i["value"] for i in runtime)
    for needle in ("librdkafka1", "libsqlite3-0", "ca-certificates", "--from=builder"):
        if needle not in runtime_text:
            errors.append(f"runtime stage: {needle!r} missing")
    users = [i["value"].split(":")[0].strip() for i in runtime if i["instruction"] == "USER"]
    if not users or users[-1] in ("root", "0"):
        errors.append("runtime stage must switch to a non-root USER")
    entrypoints = [i["value"] for i in runtime if i["instruction"] == "ENTRYPOINT"]
    try:
        entrypoint = json.loads(entrypoints[-1]) if entrypoints else None
    except json.JSONDecodeError:
        entrypoint = entrypoints[-1]
    if entrypoint != ["herald"]:
        errors.append(f'ENTRYPOINT must be ["herald"] (exec form), got {entrypoint!r}')
    return errors, f"{len(stages)} stages"


# ---- driver ------------------------------------------------------------------------------

def manifest_context(deploy):
    """What rules across files need: Secret keys, Deployments' containers, the ConfigMap, partitions."""
    context = {"secrets": {}, "deployments": {}, "config": {}, "partitions": None}
    for manifest in sorted(deploy.glob("*.yaml")):
        try:
            docs = [d for d in yaml.safe_load_all(manifest.read_text()) if isinstance(d, dict)]
        except yaml.YAMLError:
            continue  # reported by the file's own check
        for doc in docs:
            kind, name = doc.get("kind"), (doc.get("metadata") or {}).get("name")
            if kind == "Secret":
                context["secrets"][name] = set(doc.get("stringData") or {}) | set(doc.get("data") or {})
            elif kind == "ConfigMap":
                context["config"].update({k: str(v) for k, v in (doc.get("data") or {}).items()})
            elif kind == "Deployment":
                context["deployments"][name] = (((doc.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or []
            elif kind == "Job":
                for container in (((doc.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or []:
                    args = [str(a) for a in container.get("args") or []]
                    for flag, value in zip(args, args[1:]):
                        if flag == "--partitions" and value.isdigit():
                            context["partitions"] = int(value)
    return context


def check_requirements_source(root):
    """The validator's table of required variables against the binary's source."""
    found = required_environment_in_source(root)
    if found is None:
        return None
    listed = {name for names in STAGE_REQUIREMENTS.values() for name in names}
    errors = []
    if found - listed:
        errors.append(f"requires {sorted(found - listed)} with --brokers, unknown to STAGE_REQUIREMENTS in scripts/validate_deploy.py")
    if listed - found:
        errors.append(f"no longer requires {sorted(listed - found)}: update STAGE_REQUIREMENTS in scripts/validate_deploy.py")
    return errors, f"{len(found)} required variables"


def validate(root, compose_schema):
    """Validates every deployment file under root; returns [(relative path, errors, summary)]."""
    results = []
    targets = [(root / "Dockerfile", check_dockerfile),
               (root / "docker-compose.yml", lambda p: check_compose(p, compose_schema))]
    deploy = root / "deploy"
    context = manifest_context(deploy)
    for manifest in sorted(deploy.glob("*.yaml")) + sorted(deploy.glob("*.yml")):
        targets.append((manifest, check_kustomization if manifest.name == "kustomization.yaml"
                        else lambda p: check_manifest(p, context)))
    source = check_requirements_source(root)
    if source is not None:
        results.append((REQUIRED_SOURCE, *source))
    if not (deploy / "kustomization.yaml").is_file():
        results.append(("deploy/kustomization.yaml", ["missing"], ""))
    for path, check in targets:
        rel = str(path.relative_to(root))
        if not path.is_file():
            results.append((rel, ["missing"], ""))
            continue
        try:
            errors, summary = check(path)
        except Exception as error:  # a checker crash is a failed file, never a pass
            errors, summary = [f"cannot check: {type(error).__name__}: {error}"], ""
        results.append((rel, errors, summary))
    return results


def report(results):
    failed = 0
    for rel, errors, summary in results:
        if errors:
            failed += 1
            print(f"FAIL {rel}: " + "; ".join(errors))
        else:
            print(f"ok   {rel}" + (f" ({summary})" if summary else ""))
    return failed


# Each mutation breaks one file of a copy; the validator must reject exactly that file.
def _edit_yaml(path, edit):
    docs = list(yaml.safe_load_all(path.read_text()))
    edit(docs)
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))


def _drop_readiness(docs):
    del docs[0]["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]


def _unknown_field(docs):
    docs[0]["spec"]["replica"] = 3


def _wrong_type(docs):
    docs[0]["spec"]["replicas"] = "two"


def _zookeeper(docs):
    docs[0]["services"]["zookeeper"] = {"image": "confluentinc/cp-zookeeper:7.6.0"}
    docs[0]["services"]["kafka"]["environment"]["KAFKA_ZOOKEEPER_CONNECT"] = "zookeeper:2181"


def _compose_unknown_key(docs):
    docs[0]["services"]["herald-worker"]["restart_policy"] = "always"


def _unlist(docs):
    docs[0]["resources"].remove("worker-scaledobject.yaml")


def _drop_secret_env(docs):
    container = docs[0]["spec"]["template"]["spec"]["containers"][0]
    container["env"] = [e for e in container["env"] if e["name"] != "HERALD_JWT_SECRET"]


def _compose_drop_secret(docs):
    del docs[0]["services"]["herald-reader"]["environment"]["HERALD_TOKEN_KEY"]


def _wrong_group(docs):
    docs[0]["spec"]["triggers"][0]["metadata"]["consumerGroup"] = "herald.matcher"


def _root_user(path):
    path.write_text(path.read_text().replace("USER 10001:10001", "USER root"))


MUTATIONS = [
    ("worker without readinessProbe", "deploy/worker-deployment.yaml", lambda p: _edit_yaml(p, _drop_readiness)),
    ("unknown field spec.replica", "deploy/worker-deployment.yaml", lambda p: _edit_yaml(p, _unknown_field)),
    ("replicas is a string", "deploy/reader-statefulset.yaml", lambda p: _edit_yaml(p, _wrong_type)),
    ("compose with ZooKeeper", "docker-compose.yml", lambda p: _edit_yaml(p, _zookeeper)),
    ("compose unknown service key", "docker-compose.yml", lambda p: _edit_yaml(p, _compose_unknown_key)),
    ("manifest not in kustomization", "deploy/kustomization.yaml", lambda p: _edit_yaml(p, _unlist)),
    ("image runs as root", "Dockerfile", _root_user),
    ("reader without its JWT secret", "deploy/reader-statefulset.yaml", lambda p: _edit_yaml(p, _drop_secret_env)),
    ("compose reader without its token key", "docker-compose.yml", lambda p: _edit_yaml(p, _compose_drop_secret)),
    ("scaler watching a group nobody runs", "deploy/worker-scaledobject.yaml", lambda p: _edit_yaml(p, _wrong_group)),
]


def self_test(root, compose_schema):
    """Breaks copies of the files one way at a time; returns the number of mutations not caught."""
    missed = 0
    for name, target, mutate in MUTATIONS:
        with tempfile.TemporaryDirectory() as tmp:
            copy_root = Path(tmp)
            shutil.copy(root / "Dockerfile", copy_root / "Dockerfile")
            shutil.copy(root / "docker-compose.yml", copy_root / "docker-compose.yml")
            shutil.copytree(root / "deploy", copy_root / "deploy")
            mutate(copy_root / target)
            results = validate(copy_root, compose_schema)
            failing = {rel: errors for rel, errors, _ in results if errors}
            if set(failing) == {target}:
                print(f"ok   self-test: {name} -> rejected: {failing[target][0]}")
            else:
                missed += 1
                print(f"FAIL self-test: {name}: expected only {target} to fail, failing: {sorted(failing) or 'none'}")
    return missed


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--compose-schema", type=Path, required=True)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    schema = json.loads(args.compose_schema.read_text())
    root = args.root.resolve()
    failed = report(validate(root, schema))
    if args.self_test:
        failed += self_test(root, schema)
    print(f"{'FAILED' if failed else 'passed'}: deployment files "
          f"(Kubernetes {KUBERNETES_VERSION} strict schemas, Compose spec, Dockerfile)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
