"""The API's pods on Kubernetes: gunicorn on loopback behind an nginx proxy container (probes, Service and metrics
port through it), its processes and the HPA on CPU, the metrics directory an emptyDir, the image's user."""

from __future__ import annotations

import re

from tests.support.deploy import (
    APP_TARGET,
    NGINX_CONF,
    PROXY_IMAGE,
    container,
    cpu,
    env_of,
    pod_spec,
    resolve_port,
    selected_workloads,
    the,
)
from tests.support.dockerfile import effective_argv, final_stage, image_env
from tests.support.nginx import k8s_nginx_conf, nginx_directives, nginx_listen_port, nginx_size, upstream


def test_api_service_targets_the_proxy_container_port():
    service = the("Service", "longcards-api")
    assert selected_workloads(service["spec"]["selector"]) == ["longcards-api"]
    proxy = container(the("Deployment", "longcards-api"), "proxy")
    (port,) = service["spec"]["ports"]
    assert resolve_port(proxy, port["targetPort"]) == nginx_listen_port(k8s_nginx_conf())


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
