"""Settings the deployments share with the service: the body limit is the service's default everywhere, and
authentication is required (gunicorn with deploy/gunicorn.conf.py, for real, refuses to start without keys)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.deploy import APP_TARGET, DEPLOY, ROOT, compose, container, env_of, objects, pod_spec, the, workloads
from tests.support.ports import free_port


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


@pytest.mark.parametrize("name, value", [("LONGCARDS_SUBMIT_REPLICAS", "abc"), ("REDIS_SENTINELS", "[::1:18990"),
                                         ("GUNICORN_TIMEOUT", "soon"), ("LONGCARDS_DOCS_URL", "/v1")])
def test_the_image_command_stops_at_once_on_a_bad_setting(tmp_path, name, value):
    """The container's entry point runs gunicorn with deploy/gunicorn.conf.py: a bad setting ends it within seconds,
    before any table is built or worker forked, with the one message (an orchestrator sees a failed start, never a
    worker booting again and again)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LONGCARDS_", "REDIS_"))}
    env.update({name: value, "REDIS_SENTINEL_MASTER": "m", "BIND": f"127.0.0.1:{free_port()}",
                "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)})
    gunicorn = Path(sys.executable).with_name("gunicorn")
    began = time.monotonic()
    done = subprocess.run(["sh", str(DEPLOY / "docker-entrypoint.sh"), str(gunicorn), "--config",
                           str(DEPLOY / "gunicorn.conf.py"), APP_TARGET],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0, done
    assert f"gunicorn: {name}={value!r} is not valid: expects" in done.stderr, done.stderr[-2000:]
    assert "Booting worker" not in done.stderr and "evaluation tables built" not in done.stderr
    assert time.monotonic() - began < 15


def test_every_value_the_deploy_files_set_is_one_the_service_accepts():
    """Compose's defaults and the Kubernetes objects' literal values pass the check every process makes at start
    (secrets are placeholders there, to be replaced). A path is one inside the container: its text is checked here,
    what is there in test_workload_environments.py."""
    from service.config import PATH_CHECKS, SETTINGS, check_environment

    checked = 0
    for setting in (s for s in SETTINGS if not s.secret):
        for value in deployed_values(setting.env).values():
            if value is not None and "$" not in value:
                others = {"REDIS_SENTINEL_MASTER": "m", "LONGCARDS_API_KEYS": f"k:{'0' * 64}"}
                if setting.env in PATH_CHECKS:
                    setting.read(value)
                else:
                    check_environment({**others, setting.env: value})
                checked += 1
    assert checked >= 5, checked


def test_keys_are_required_where_the_api_runs_and_a_malformed_value_everywhere(monkeypatch, capsys):
    """LONGCARDS_REQUIRE_AUTH without keys stops the API (gunicorn, the app, serve), not a worker, whose pods are not
    given the keys (k8s/worker.yaml); a malformed value, and a rule every process needs, stop every process."""
    from service.__main__ import main
    from service.config import ROLES, ConfigError, check_environment

    auth = {"LONGCARDS_REQUIRE_AUTH": "true"}
    assert check_environment(auth, role="worker") == {"LONGCARDS_REQUIRE_AUTH": True}
    for role in ("api", "serve"):
        with pytest.raises(ConfigError, match="LONGCARDS_REQUIRE_AUTH is set but LONGCARDS_API_KEYS names no key"):
            check_environment(auth, role=role)
    for role in ROLES:
        with pytest.raises(ConfigError, match="LONGCARDS_API_KEYS is not valid"):
            check_environment({**auth, "LONGCARDS_API_KEYS": "alice"}, role=role)
        with pytest.raises(ConfigError, match="REDIS_SENTINEL_MASTER"):
            check_environment({"REDIS_SENTINELS": "a:1"}, role=role)
    for name in [n for n in os.environ if n.startswith(("LONGCARDS_", "REDIS_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("LONGCARDS_REQUIRE_AUTH", "true")
    assert main(["check-config", "--for", "worker"]) == 0
    assert main(["check-config", "--for", "api"]) == 2 and main(["check-config"]) == 2
    assert capsys.readouterr().err.count("names no key") == 2
