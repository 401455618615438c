"""Every workload of deploy/compose.yaml and deploy/k8s/*.yaml that runs the service's image starts its real entry
point with the environment the deployment gives it, and gets past the configuration check.

The process is the container's: the image's ENTRYPOINT (deploy/docker-entrypoint.sh) in front of the image's CMD or
the workload's command/args (gunicorn with deploy/gunicorn.conf.py, `python -m workers`). Its environment is the
image's ENV, then for Kubernetes the ConfigMap of config.yaml and the Secret of secret.yaml.example merged as the
kubelet merges them (envFrom, env with secretKeyRef/configMapKeyRef, `$(VAR)` expansion), for Compose the service's
`environment` interpolated from an operator's shell (`${VAR:-default}`, names passed through).

What differs from a container, only so that the process can run here: the Secret's placeholders and the operator's
shell hold values of the right shape (an API key entry, long random passwords), as an operator puts them in; the
container's paths (the files the image copies, /tmp, the pod's volumes) are files and directories of the test, in
the argv, the environment and the entry point script alike; `python` and `gunicorn` are this virtualenv's; and
gunicorn's BIND keeps its host's role but listens on a free loopback port.

Past the check means: `python -m workers` logs its first line after the check (the evaluation tables built), and
gunicorn answers /healthz (deploy/gunicorn.conf.py's check and the app's own are before it). No process reaches
Redis (the Sentinels' names resolve to nothing here), which is expected. Redis, the Sentinels and nginx (Compose's
redis, redis-replica, sentinel-N and proxy; the longcards-redis StatefulSet and the API pod's proxy container) run
other images with no Python entry point: out of scope, and the test checks that they are the only ones left out.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.deploy import (
    ROOT,
    compose,
    compose_environment,
    k8s_data,
    k8s_environment,
    objects,
    pod_spec,
    workloads,
)
from tests.support.dockerfile import copies, effective_argv, exec_form, final_stage, image_env
from tests.support.ports import free_port
from tests.support.processes import wait_for
from tests.support.web import answers

SERVICE_IMAGE = "longcards-service"
OTHER_IMAGES = ("redis", "nginx")  # no Python entry point: out of this test's scope
STARTUP = 120  # each process builds the evaluation tables first, on 2 shared cores
#: What an operator puts in the Secret's placeholders and in Compose's shell.
API_KEY_ENTRY = f"operator:{hashlib.sha256(b'an-api-key-the-operator-made').hexdigest()}"
PASSWORD = "5f1c0de0c7a94e2b8d6a3f7e9b1c4d2a"
SHELL = {"LONGCARDS_REDIS_PASSWORD": PASSWORD, "LONGCARDS_API_KEYS": API_KEY_ENTRY,
         "LONGCARDS_WEBHOOK_SECRET": "b7e2" * 8}


@dataclass(frozen=True)
class Workload:
    """A container of the service's image: what it runs, its environment and the directories it writes."""

    name: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    mounts: tuple[str, ...] = ()


def image_name(image: str) -> str:
    """`registry/name:tag` without the registry and the tag."""
    return image.rsplit("/", 1)[-1].split(":")[0]


def filled(secret: dict) -> dict:
    """A Secret template with its placeholders replaced as an operator replaces them."""
    values = {key: (API_KEY_ENTRY if key == "LONGCARDS_API_KEYS" else PASSWORD) if text.startswith("REPLACE") else text
              for key, text in k8s_data(secret).items()}
    return {"kind": "Secret", "stringData": values}


def k8s_workloads() -> list[Workload]:
    """Every container of the service's image under deploy/k8s, with the environment Kubernetes gives it."""
    config_maps = objects("ConfigMap")
    secrets = {name: filled(secret) for name, secret in objects("Secret").items()}
    found = []
    for name, workload in workloads().items():
        for cont in pod_spec(workload)["containers"]:
            if image_name(cont["image"]) == SERVICE_IMAGE:
                env = {**image_env(), **k8s_environment(cont, config_maps, secrets)}
                mounts = tuple(m["mountPath"] for m in cont.get("volumeMounts", []))
                found.append(Workload(f"k8s {name}/{cont['name']}", tuple(effective_argv(cont)),
                                      tuple(env.items()), mounts))
            else:
                assert image_name(cont["image"]) in OTHER_IMAGES, f"{name}/{cont['name']} runs {cont['image']}"
    return found


def compose_workloads() -> list[Workload]:
    """Every Compose service of the service's image, with the environment Compose gives it from SHELL."""
    found = []
    for name, service in compose()["services"].items():
        if image_name(service.get("image", "")) != SERVICE_IMAGE:
            assert image_name(service.get("image", "")) in OTHER_IMAGES, f"compose {name} runs {service.get('image')}"
            continue
        entrypoint = service.get("entrypoint", exec_form("ENTRYPOINT"))
        command = service.get("command", [] if "entrypoint" in service else exec_form("CMD"))
        assert isinstance(entrypoint, list) and isinstance(command, list), f"compose {name}: not in exec form"
        env = {**image_env(), **compose_environment(service, SHELL)}
        found.append(Workload(f"compose {name}", (*entrypoint, *command), tuple(env.items())))
    return found


WORKLOADS = k8s_workloads() + compose_workloads()


class Container:
    """The container's file system mapped onto the test's: each file the image copies is a copy under `root` (its
    container paths mapped too), and /tmp and the pod's volumes are directories under `root`."""

    def __init__(self, root: Path, workload: Workload) -> None:
        self.root = root
        workdir = next(rest for kw, rest in reversed(final_stage()) if kw == "WORKDIR")
        dirs = sorted({"/tmp", workdir, *workload.mounts}, key=len, reverse=True)
        for directory in dirs:
            self.path(directory).mkdir(parents=True, exist_ok=True)
        # Whole path segments (`${X:-/tmp/m}` too): the paths already mapped stay as they are.
        self.inside = re.compile(rf"(?<![\w/.])({'|'.join(map(re.escape, dirs))})(?![\w.-])")
        self.workdir = self.path(workdir)
        for flags, destination, sources in copies():
            for source in (s for s in sources if not any(f.startswith("--from") for f in flags)):
                target = self.path(destination + Path(source).name if destination.endswith("/") else destination)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(self.mapped((ROOT / source).read_text(encoding="utf-8")), encoding="utf-8")

    def path(self, inside: str) -> Path:
        """Where a container path is here."""
        return self.root / inside.lstrip("/")

    def mapped(self, text: str) -> str:
        """`text` with the container's directories (/tmp, the volumes, the image's WORKDIR) replaced by theirs
        here."""
        return self.inside.sub(lambda match: str(self.path(match.group(1))), text)


def start(workload: Workload, container: Container, log: Path) -> tuple[subprocess.Popen, str | None]:
    """The workload's process, started here; the base URL its gunicorn answers at (None when it runs none)."""
    env = {name: container.mapped(text) for name, text in workload.env}
    base = None
    if any(Path(word).name == "gunicorn" for word in workload.argv):
        base = f"http://127.0.0.1:{free_port()}"
        env["BIND"] = base.removeprefix("http://")
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", HOME=str(container.workdir),
               LANG="C.UTF-8")
    with log.open("wb") as out:
        process = subprocess.Popen([container.mapped(word) for word in workload.argv], cwd=container.workdir,
                                   env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return process, base


def stop(process: subprocess.Popen) -> None:
    """SIGKILL the process's whole group (its session: gunicorn and its workers, a worker and its scheduler) at
    once: the test asks only how far it got, and a graceful stop cost gunicorn up to 10 s here."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def test_every_workload_of_the_service_image_is_run():
    names = {w.name for w in WORKLOADS}
    assert {"k8s longcards-api/api", "k8s longcards-worker/worker", "compose api", "compose worker"} <= names, names


@pytest.mark.slow  # a gunicorn or a worker per workload, each building the evaluation tables: 5-15 s each
@pytest.mark.parametrize("workload", WORKLOADS, ids=lambda w: w.name)
def test_the_workload_starts_past_the_configuration_check(tmp_path, workload):
    container = Container(tmp_path / "container", workload)
    log = tmp_path / "output.log"
    process, base = start(workload, container, log)
    try:
        def past_the_check() -> bool:
            if process.poll() is not None:
                return True
            said = log.read_text(encoding="utf-8", errors="replace")
            return answers(f"{base}/healthz") if base else "evaluation tables built" in said

        wait_for(past_the_check, STARTUP, f"{workload.name} to get past the configuration check", 0.2)
        said = log.read_text(encoding="utf-8", errors="replace")
        assert process.poll() is None, f"{workload.name} exited with {process.returncode}:\n{said[-3000:]}"
        assert "is not valid" not in said and "bad settings" not in said, said[-3000:]
    finally:
        stop(process)
