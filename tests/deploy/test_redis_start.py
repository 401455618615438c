"""deploy/redis-start.sh, which starts every member of the Redis group that fails over (Compose mounts it, the
Kubernetes ConfigMap holds a copy), run for real with stand-ins for redis-cli and redis-server: a node joins the
primary a Sentinel names (or the first node, when none answers), never itself; a Sentinel watches that primary and
writes its file only once. The file it writes is then started by the real redis-server in Sentinel mode."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml
from redis import Redis
from redis.exceptions import RedisError

from service.runtime.localredis import redis_server_binary
from tests.support.deploy import K8S, REDIS_START
from tests.support.ports import free_port
from tests.support.processes import wait_for

SENTINELS = "sentinel-1 sentinel-2 sentinel-3"
STUB_CLI = """#!/bin/sh
# redis-cli stand-in: logs the host asked; the hosts in $ANSWERING answer $ANSWER, the others cannot be reached.
while [ $# -gt 0 ]; do
  case "$1" in -h) host=$2; shift 2 ;; -p) port=$2; shift 2 ;; *) break ;; esac
done
echo "$host:$port $*" >> "$ASKED"
for h in $ANSWERING; do [ "$h" = "$host" ] && { echo "$ANSWER"; exit 0; }; done
echo "Could not connect to Redis at $host:$port: Name or service not known" >&2
exit 1
"""
STUB_SERVER = """#!/bin/sh
echo "$*"
"""


def run(tmp_path: Path, role: str, self_name: str, answering: str = "", answer: str = "",
        *argv: str) -> subprocess.CompletedProcess:
    """redis-start.sh ROLE ARGV with the stand-ins first on PATH."""
    stubs = tmp_path / "bin"
    stubs.mkdir(exist_ok=True)
    for name, text in (("redis-cli", STUB_CLI), ("redis-server", STUB_SERVER)):
        (stubs / name).write_text(text)
        (stubs / name).chmod(0o755)
    env = {"PATH": f"{stubs}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", "REDIS_SELF": self_name,
           "REDIS_FIRST": "redis", "SENTINEL_HOSTS": SENTINELS, "SENTINEL_MASTER": "longcards",
           "REDIS_PASSWORD": "pw", "SENTINEL_DIR": str(tmp_path), "ASKED": str(tmp_path / "asked"),
           "ANSWERING": answering, "ANSWER": answer}
    return subprocess.run(["sh", str(REDIS_START), role, *argv], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize("self_name, answering, answer, joins", [
    ("redis", "", "", None),  # the very first start: no Sentinel yet, the first node is the primary
    ("redis-replica", "", "", "redis"),
    ("redis", "sentinel-3", "redis-replica", "redis-replica"),  # back after a failover: it follows the new primary
    ("redis-replica", "sentinel-1", "redis-replica", None),  # the promoted node stays the primary
    ("redis-replica", "sentinel-2", "NOAUTH Authentication required.", "redis"),  # an error names no primary
])
def test_a_data_node_joins_the_primary_the_sentinels_name(tmp_path, self_name, answering, answer, joins):
    done = run(tmp_path, "redis", self_name, answering, answer, "redis-server", "--appendonly", "yes")
    assert done.returncode == 0, done.stderr
    argv = done.stdout.split()
    assert argv[:2] == ["--appendonly", "yes"], "the command line is not passed on"
    assert argv[argv.index("--replica-announce-ip") + 1] == self_name
    assert (argv[argv.index("--replicaof") + 1:] if "--replicaof" in argv else None) == \
        (None if joins is None else [joins, "6379"])
    asked = (tmp_path / "asked").read_text().splitlines()
    assert asked[0].split()[0] == "sentinel-1:26379" and "get-master-addr-by-name longcards" in asked[0]


def test_a_sentinel_watches_the_primary_the_others_name_and_keeps_its_file(tmp_path):
    done = run(tmp_path, "sentinel", "sentinel-1", "sentinel-2", "redis-replica")
    assert done.returncode == 0, done.stderr
    conf = tmp_path / "sentinel.conf"
    assert done.stdout.split() == [str(conf), "--sentinel"]
    text = conf.read_text()
    assert "sentinel monitor longcards redis-replica 6379 2" in text
    assert "sentinel announce-ip sentinel-1" in text and "requirepass pw" in text
    assert "sentinel-1:" not in (tmp_path / "asked").read_text(), "a Sentinel asked itself"
    again = run(tmp_path, "sentinel", "sentinel-1", "", "")
    assert again.returncode == 0 and conf.read_text() == text, "a restart overwrote what the Sentinel had learnt"


def test_the_sentinel_file_starts_a_real_sentinel(tmp_path):
    done = run(tmp_path, "sentinel", "sentinel-1")
    assert done.returncode == 0, done.stderr
    port = free_port()
    conf = tmp_path / "sentinel.conf"
    text = conf.read_text().replace("port 26379", f"port {port}\nbind 127.0.0.1")
    conf.write_text(text.replace("monitor longcards redis ", "monitor longcards 127.0.0.1 "))
    with (tmp_path / "sentinel.log").open("wb") as log:
        sentinel = subprocess.Popen([redis_server_binary(), str(conf), "--sentinel"], stdout=log,
                                    stderr=subprocess.STDOUT)
    client = Redis(port=port, password="pw", socket_timeout=1, decode_responses=True)

    def watching() -> bool:
        try:
            return client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "longcards") == ["127.0.0.1", "6379"]
        except RedisError:
            assert sentinel.poll() is None, (tmp_path / "sentinel.log").read_text()[-2000:]
            return False

    try:
        wait_for(watching, 20, "the Sentinel to watch the primary of its file")
    finally:
        client.close()
        sentinel.kill()
        sentinel.wait(timeout=10)


def test_the_kubernetes_config_map_holds_the_same_script():
    docs = list(yaml.safe_load_all((K8S / "redis.yaml").read_text(encoding="utf-8")))
    (scripts,) = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "longcards-redis-scripts"]
    assert scripts["data"]["redis-start.sh"] == REDIS_START.read_text(encoding="utf-8")
