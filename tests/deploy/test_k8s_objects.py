"""The Kubernetes objects under deploy/k8s/ are well formed and refer to each other correctly: names, API
versions, selectors, Services and their ports, PodDisruptionBudgets, resources, Secrets, ConfigMaps and volumes."""

from __future__ import annotations

from typing import Any

from tests.support.deploy import (
    DNS_LABEL,
    K8S,
    container,
    cpu,
    env_of,
    k8s_objects,
    load_docs,
    memory,
    objects,
    pod_spec,
    selected_workloads,
    the,
    workloads,
)


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
    assert {"longcards-api", "longcards-worker"} <= set(objects("HorizontalPodAutoscaler"))
    assert {"longcards-api", "longcards-worker", "longcards-redis"} <= set(objects("PodDisruptionBudget"))


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


def test_pod_disruption_budgets_select_pods():
    for name, pdb in objects("PodDisruptionBudget").items():
        assert selected_workloads(pdb["spec"]["selector"]["matchLabels"]), f"PDB {name} selects no pods"


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
