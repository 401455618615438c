"""The deployment files under deploy/ as the deploy tests read them: the paths and the names they share, every
YAML file, the Kubernetes objects and their pods, Compose's services, Kubernetes quantities, and the environment a
container gets from Kubernetes (ConfigMaps, Secrets, `$(VAR)`) or from Compose (`${VAR:-default}`)."""

from __future__ import annotations

import base64
import functools
import re
from pathlib import Path
from typing import Any

import yaml

from tests.support.processes import ROOT

DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
ENTRYPOINT = DEPLOY / "docker-entrypoint.sh"
NGINX_CONF = DEPLOY / "nginx.conf"
REDIS_START = DEPLOY / "redis-start.sh"
APP_TARGET = "service.app:create_app()"
WORKER_ARGV = ["python", "-m", "workers"]
API_PORT = 8000
PROXY_IMAGE = "nginx"
WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
YAML_NAME = re.compile(r"\.ya?ml(\.example)?$")


def yaml_files() -> list[Path]:
    """Every YAML file under deploy/, templates (`*.yaml.example`) included."""
    return sorted(p for p in DEPLOY.rglob("*") if p.is_file() and YAML_NAME.search(p.name))


def load_docs(path: Path) -> list[Any]:
    """The documents of a YAML file, empty ones (a trailing `---`) left out."""
    with path.open(encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc is not None]


@functools.cache
def k8s_objects() -> tuple[tuple[Path, dict[str, Any]], ...]:
    """Every Kubernetes object under deploy/k8s/, with its file (parsed once; tests only read them)."""
    return tuple((path, doc) for path in yaml_files() if K8S in path.parents for doc in load_docs(path))


def objects(kind: str) -> dict[str, dict[str, Any]]:
    """The Kubernetes objects of one kind, by name."""
    return {doc["metadata"]["name"]: doc for _, doc in k8s_objects() if doc.get("kind") == kind}


def the(kind: str, name: str) -> dict[str, Any]:
    """One Kubernetes object, which must exist."""
    found = objects(kind)
    assert name in found, f"no {kind} {name!r} under deploy/k8s (have {sorted(found)})"
    return found[name]


def workloads() -> dict[str, dict[str, Any]]:
    """Deployments and StatefulSets by name."""
    return {doc["metadata"]["name"]: doc for _, doc in k8s_objects() if doc.get("kind") in WORKLOAD_KINDS}


def pod_spec(workload: dict[str, Any]) -> dict[str, Any]:
    """The pod template's spec."""
    return workload["spec"]["template"]["spec"]


def container(workload: dict[str, Any], name: str) -> dict[str, Any]:
    """One container of a workload's pods."""
    by_name = {c["name"]: c for c in pod_spec(workload)["containers"]}
    assert name in by_name, f"{workload['metadata']['name']} has no container {name!r} (has {sorted(by_name)})"
    return by_name[name]


def env_of(cont: dict[str, Any]) -> dict[str, Any]:
    """A container's `env` entries by name."""
    return {item["name"]: item for item in cont.get("env", [])}


def resolve_port(cont: dict[str, Any], port: int | str) -> int:
    """A probe's or Service's port (number or container port name) as a container port number."""
    ports = cont.get("ports", [])
    if isinstance(port, int):
        assert port in [p["containerPort"] for p in ports], f"port {port} is not a container port of {cont['name']}"
        return port
    named = {p.get("name"): p["containerPort"] for p in ports}
    assert port in named, f"container {cont['name']} has no port named {port!r} (has {sorted(filter(None, named))})"
    return named[port]


def bind_port(bind: str) -> int:
    """The port of a gunicorn BIND value such as 0.0.0.0:8000."""
    return int(bind.rsplit(":", 1)[1])


def selected_workloads(selector: dict[str, str]) -> list[str]:
    """Names of the workloads whose pod labels carry every label of the selector."""
    return [name for name, w in workloads().items()
            if selector.items() <= w["spec"]["template"]["metadata"]["labels"].items()]


def cpu(quantity: str | int | float) -> float:
    """A Kubernetes CPU quantity in cores."""
    text = str(quantity)
    return float(text[:-1]) / 1000 if text.endswith("m") else float(text)


MEMORY_UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def memory(quantity: str | int) -> int:
    """A Kubernetes memory quantity in bytes."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]i|[kMGT])?", str(quantity))
    assert match, f"not a memory quantity: {quantity!r}"
    return int(float(match.group(1)) * MEMORY_UNITS.get(match.group(2) or "", 1))


def worker_probe_code() -> str:
    """The Python code of the workers' Kubernetes liveness probe (`python -c CODE`)."""
    probe = container(the("Deployment", "longcards-worker"), "worker")["livenessProbe"]
    command = probe["exec"]["command"]
    assert command[:2] == ["python", "-c"] and len(command) == 3, command
    assert "rq info" not in " ".join(command)
    return command[2]


def assert_aof(argv: list[str]) -> None:
    """Redis arguments turn the append-only file on with fsync every second."""
    assert "--appendonly" in argv and argv[argv.index("--appendonly") + 1] == "yes", argv
    assert "--appendfsync" in argv and argv[argv.index("--appendfsync") + 1] == "everysec", argv


def compose() -> dict[str, Any]:
    """compose.yaml (YAML merge keys resolved)."""
    (doc,) = load_docs(COMPOSE)
    return doc


def compose_service(name: str) -> dict[str, Any]:
    """One service of compose.yaml."""
    services = compose()["services"]
    assert name in services, f"compose.yaml has no service {name!r}"
    return services[name]


# --- the environment a workload's process starts with ------------------------------------------------------------

K8S_REFERENCE = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)")
COMPOSE_VARIABLE = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def k8s_data(obj: dict[str, Any]) -> dict[str, str]:
    """A ConfigMap's or a Secret's keys and values as a container sees them (a Secret's `data` is base64)."""
    if obj["kind"] == "Secret":
        found = {key: base64.b64decode(text).decode() for key, text in (obj.get("data") or {}).items()}
        return {**found, **{key: str(text) for key, text in (obj.get("stringData") or {}).items()}}
    return {key: str(text) for key, text in (obj.get("data") or {}).items()}


def k8s_expand(text: str, defined: dict[str, str]) -> str:
    """`$(VAR)` replaced by a variable defined before it (left as it is otherwise), `$$` by `$`, as the kubelet
    does."""
    return K8S_REFERENCE.sub(lambda m: "$" if m.group(0) == "$$" else defined.get(m.group(1), m.group(0)), text)


def k8s_environment(cont: dict[str, Any], config_maps: dict[str, dict[str, Any]],
                    secrets: dict[str, dict[str, Any]]) -> dict[str, str]:
    """The variables Kubernetes gives a container: `envFrom` in order (each ConfigMap's or Secret's keys, with its
    prefix), then `env` in order (a value, or a key of a Secret or ConfigMap), a later one replacing an earlier one;
    `$(VAR)` in a value is expanded from the variables defined before it."""
    defined: dict[str, str] = {}
    for source in cont.get("envFrom", []):
        kind, objs = ("configMapRef", config_maps) if "configMapRef" in source else ("secretRef", secrets)
        data = k8s_data(objs[source[kind]["name"]])
        defined.update({source.get("prefix", "") + key: text for key, text in data.items()})
    for item in cont.get("env", []):
        reference = item.get("valueFrom")
        if reference is None:
            defined[item["name"]] = k8s_expand(str(item.get("value", "")), defined)
            continue
        kind, objs = ("secretKeyRef", secrets) if "secretKeyRef" in reference else ("configMapKeyRef", config_maps)
        assert kind in reference, f"{cont['name']}: {item['name']} comes from {reference}, which is not read here"
        defined[item["name"]] = k8s_data(objs[reference[kind]["name"]])[reference[kind]["key"]]
    return defined


def compose_interpolate(text: str, shell: dict[str, str]) -> str:
    """Compose's interpolation of `text` from the shell's variables: `$VAR`, `${VAR}`, `${VAR:-default}` (`-`:
    only when unset), `${VAR:?message}` (Compose refuses to start: AssertionError), `$$` for `$`."""
    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, argument = match.group(1) or match.group(4), match.group(2), match.group(3)
        found = shell.get(name)
        missing = found is None or found == "" and bool(operator) and operator.startswith(":")
        if operator and operator.endswith("-") and missing:
            return argument
        assert not (operator and operator.endswith("?") and missing), f"compose refuses to start: {argument}"
        return found or ""
    return COMPOSE_VARIABLE.sub(one, text)


def compose_environment(service: dict[str, Any], shell: dict[str, str]) -> dict[str, str]:
    """The variables Compose gives a service's container: its `environment` interpolated from the shell; a name
    without a value is passed through from the shell when set there, and left out otherwise."""
    assert "env_file" not in service, "env_file is not read here"
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(entry.split("=", 1) if "=" in entry else (entry, None) for entry in environment)
    found = {}
    for name, text in environment.items():
        if text is None:
            if name in shell:
                found[name] = shell[name]
        else:
            found[name] = compose_interpolate(str(text), shell)
    return found
