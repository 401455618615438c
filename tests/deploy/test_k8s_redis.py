"""Redis on Kubernetes: a StatefulSet of three pods, each a data node (the append-only file on a persistent volume)
beside a Sentinel, behind a headless Service; the API and the workers find the primary through the Sentinels; the
password from the Secret everywhere, and only the API, the workers and the Redis pods themselves may reach them."""

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


def test_only_the_api_the_workers_and_the_redis_pods_reach_redis_and_the_sentinels():
    (policy,) = objects("NetworkPolicy").values()
    spec = policy["spec"]
    assert selected_workloads(spec["podSelector"]["matchLabels"]) == ["longcards-redis"]
    assert spec["policyTypes"] == ["Ingress"]
    (rule,) = spec["ingress"]
    allowed = sorted(w for peer in rule["from"] for w in selected_workloads(peer["podSelector"]["matchLabels"]))
    # The Redis pods reach one another: replication, and the Sentinels' watch and election.
    assert allowed == ["longcards-api", "longcards-redis", "longcards-worker"]
    assert all(set(peer) == {"podSelector"} for peer in rule["from"]), "no namespace or IP block may widen it"
    statefulset = the("StatefulSet", "longcards-redis")
    redis, sentinel = container(statefulset, "redis"), container(statefulset, "sentinel")
    served = [resolve_port(redis, "redis"), resolve_port(sentinel, "sentinel")]
    assert sorted(p["port"] for p in rule["ports"]) == served == [6379, 26379]


def redis_env(name: str) -> str:
    """A plain value of the Redis pods' environment (the data node's and the Sentinel's are one list)."""
    statefulset = the("StatefulSet", "longcards-redis")
    redis, sentinel = container(statefulset, "redis"), container(statefulset, "sentinel")
    assert redis["env"] == sentinel["env"], "the data node and the Sentinel must see the same group"
    return env_of(redis)[name]["value"]


def test_the_redis_group_is_a_primary_two_replicas_and_three_sentinels():
    statefulset = the("StatefulSet", "longcards-redis")
    spec = statefulset["spec"]
    assert spec["replicas"] == 3, "a primary and two replicas, each pod with a Sentinel: a quorum of 2 of 3"
    service = the("Service", spec["serviceName"])
    # Pods find each other by name while the group forms, before any of them is ready.
    assert service["spec"]["publishNotReadyAddresses"] is True
    sentinel = container(statefulset, "sentinel")
    ports = {p["name"]: p for p in service["spec"]["ports"]}
    assert resolve_port(sentinel, ports["sentinel"]["targetPort"]) == ports["sentinel"]["port"] == 26379
    hosts = [f"{statefulset['metadata']['name']}-{i}.{service['metadata']['name']}" for i in range(spec["replicas"])]
    config = the("ConfigMap", "longcards-config")["data"]
    assert config["REDIS_SENTINELS"] == ",".join(f"{host}:26379" for host in hosts)
    assert redis_env("SENTINEL_HOSTS").split() == hosts
    assert config["REDIS_SENTINEL_MASTER"] == redis_env("SENTINEL_MASTER")
    assert redis_env("REDIS_FIRST") == hosts[0]
    # Each pod's own name: $(POD_NAME) is expanded only from a variable defined before it.
    env = container(statefulset, "redis")["env"]
    names = [item["name"] for item in env]
    assert redis_env("REDIS_SELF") == f"$(POD_NAME).{service['metadata']['name']}"
    assert env_of(container(statefulset, "redis"))["POD_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    assert names.index("POD_NAME") < names.index("REDIS_SELF")
    assert sentinel["command"][-1] == "sentinel" and "redis-start.sh" in sentinel["command"][1]


def test_redis_nodes_start_through_the_script_and_log_in_to_a_new_primary():
    statefulset = the("StatefulSet", "longcards-redis")
    redis = container(statefulset, "redis")
    assert redis["command"][:3] == ["sh", "/scripts/redis-start.sh", "redis"]
    argv = [str(a) for a in redis["args"]]
    assert argv[0] == "redis-server"
    assert argv[argv.index("--masterauth") + 1] == "$(REDIS_PASSWORD)", "a demoted primary could not follow the new one"
    mounts = {m["mountPath"]: m["name"] for m in redis["volumeMounts"]}
    volume = next(v for v in pod_spec(statefulset)["volumes"] if v["name"] == mounts["/scripts"])
    assert "redis-start.sh" in the("ConfigMap", volume["configMap"]["name"])["data"]


def test_the_api_and_the_workers_log_in_to_the_sentinels_with_redis_password():
    for name in ("longcards-api", "longcards-worker"):
        cont = pod_spec(the("Deployment", name))["containers"][0]
        assert env_of(cont)["REDIS_SENTINEL_PASSWORD"]["valueFrom"]["secretKeyRef"] == redis_password_ref(), name


def test_a_drain_takes_one_redis_pod_at_a_time():
    pdb = the("PodDisruptionBudget", "longcards-redis")
    assert selected_workloads(pdb["spec"]["selector"]["matchLabels"]) == ["longcards-redis"]
    assert pdb["spec"]["maxUnavailable"] == 1
