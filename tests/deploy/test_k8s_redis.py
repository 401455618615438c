"""Redis on Kubernetes: a StatefulSet with the append-only file on a persistent volume behind a headless Service,
its password from the Secret in every REDIS_URL, and only the API and the workers may reach it."""

from __future__ import annotations

import urllib.parse

from tests.support.deploy import (
    K8S,
    assert_aof,
    container,
    env_of,
    load_docs,
    objects,
    pod_spec,
    resolve_port,
    selected_workloads,
    the,
)


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
