"""The Redis group of the deploy files, run for real: two data nodes and three Sentinels, each started by
deploy/redis-start.sh with the ports the files use (6379, 26379) on loopback addresses of their own (a random
127.x.y.0/24, never 127.0.0.1), the embedded redis-server and its redis-cli standing in for the `redis:7` image. The
group forms from nothing (the first node the primary), fails over when the primary is killed, and the killed node,
started again by the same script, comes back as a replica of the promoted one instead of a second primary."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import RedisError

from service.runtime.localredis import redis_server_binary
from tests.support.deploy import REDIS_START
from tests.support.processes import wait_for

pytestmark = pytest.mark.slow  # five servers; the Sentinels find each other in 2-4 s and fail over in about 3 s

PASSWORD = "group-secret-0123"
MASTER = "longcards"


def free_subnet() -> str:
    """A loopback /24 (`127.x.y.`) whose addresses .11, .12, .21-.23 have ports 6379 and 26379 free."""
    for _ in range(20):
        prefix = f"127.{random.randint(100, 250)}.{random.randint(0, 250)}."
        try:
            for host in (11, 12, 21, 22, 23):
                for port in (6379, 26379):
                    with socket.socket() as probe:
                        probe.bind((prefix + str(host), port))
        except OSError:
            continue
        return prefix
    pytest.fail("no free loopback subnet for the Redis group")


class Group:
    """The group's processes by host, all started through redis-start.sh."""

    def __init__(self, root: Path) -> None:
        self.root, self.prefix = root, free_subnet()
        self.nodes = [self.prefix + "11", self.prefix + "12"]
        self.sentinels = [self.prefix + str(i) for i in (21, 22, 23)]
        self.processes: dict[str, subprocess.Popen] = {}
        tools = str(Path(redis_server_binary()).parent)  # redis-server and redis-cli
        self.env = {"PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", "REDIS_PASSWORD": PASSWORD,
                    "REDISCLI_AUTH": PASSWORD, "REDIS_FIRST": self.nodes[0], "SENTINEL_MASTER": MASTER,
                    "SENTINEL_HOSTS": " ".join(self.sentinels), "SENTINEL_DOWN_AFTER_MS": "1000"}

    def start_node(self, host: str) -> None:
        """A data node on `host`:6379 (no persistence: the test's nodes keep nothing across a kill)."""
        directory = self.root / host
        directory.mkdir(exist_ok=True)
        self.start(host, ["redis", "redis-server", "--bind", host, "--port", "6379", "--dir", str(directory),
                          "--save", "", "--appendonly", "no", "--requirepass", PASSWORD, "--masterauth", PASSWORD])

    def start_sentinel(self, host: str) -> None:
        """A Sentinel on `host`:26379."""
        directory = self.root / host
        directory.mkdir(exist_ok=True)
        self.start(host, ["sentinel"], SENTINEL_BIND=host, SENTINEL_DIR=str(directory))

    def start(self, host: str, argv: list[str], **env: str) -> None:
        with (self.root / f"{host}.log").open("ab") as log:
            self.processes[host] = subprocess.Popen(
                ["sh", str(REDIS_START), *argv], env={**self.env, "REDIS_SELF": host, **env}, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)

    def client(self, host: str, port: int = 6379) -> Redis:
        return Redis(host=host, port=port, password=PASSWORD, socket_connect_timeout=1, socket_timeout=2,
                     decode_responses=True)

    def primary(self) -> str | None:
        """The host the three Sentinels agree is the primary."""
        named = set()
        for host in self.sentinels:
            try:
                named.add(self.client(host, 26379).execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)[0])
            except (RedisError, TypeError):
                return None
        return named.pop() if len(named) == 1 else None

    def replicates(self, replica: str, primary: str) -> bool:
        """`replica` is a replica of `primary`, in sync."""
        try:
            info = self.client(replica).info("replication")
        except RedisError:
            return False
        return info.get("role") == "slave" and info.get("master_host") == primary and \
            info.get("master_link_status") == "up"

    def settled(self) -> bool:
        """The replica is in sync and every Sentinel knows it and the two others."""
        try:
            for host in self.sentinels:
                sentinel = self.client(host, 26379)
                if len(sentinel.execute_command("SENTINEL", "REPLICAS", MASTER)) < 1 or \
                        len(sentinel.execute_command("SENTINEL", "SENTINELS", MASTER)) < 2:
                    return False
        except RedisError:
            return False
        return self.replicates(self.nodes[1], self.nodes[0])

    def kill(self, host: str) -> None:
        self.processes[host].send_signal(signal.SIGKILL)
        self.processes[host].wait(timeout=10)

    def log(self, host: str) -> str:
        return (self.root / f"{host}.log").read_text(errors="replace")[-1500:]


@contextlib.contextmanager
def group(root: Path) -> Iterator[Group]:
    started = Group(root)
    try:
        yield started
    finally:
        for process in started.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)


def test_the_deploy_files_redis_group_forms_fails_over_and_takes_the_old_primary_back(tmp_path):
    with group(tmp_path) as redis:
        first, second = redis.nodes
        redis.start_node(first)
        wait_for(lambda: answers(redis.client(first)), 10, f"the first node ({redis.log(first)})")
        redis.start_node(second)
        for host in redis.sentinels:
            redis.start_sentinel(host)
        wait_for(redis.settled, 30, f"the group to form ({redis.log(redis.sentinels[0])})", 0.2)
        assert redis.primary() == first, "the first node is not the primary of a group started from nothing"
        redis.client(first).set("kept", "yes")
        wait_for(lambda: redis.client(second).get("kept") == "yes", 10, "the write to reach the replica")

        redis.kill(first)
        wait_for(lambda: redis.primary() == second, 30, f"the promotion ({redis.log(redis.sentinels[0])})", 0.2)
        assert redis.client(second).info("replication")["role"] == "master"
        assert redis.client(second).get("kept") == "yes"

        redis.start_node(first)  # as a restarted container or pod: the same command line, the same script
        wait_for(lambda: answers(redis.client(first)), 10, f"the old primary to start ({redis.log(first)})", 0.02)
        # A replica from its first answer: the script asked the Sentinels; it never was a second primary that the
        # Sentinels would have to demote.
        assert redis.client(first).info("replication")["role"] == "slave"
        wait_for(lambda: redis.replicates(first, second), 30, f"the old primary to rejoin ({redis.log(first)})", 0.2)
        assert redis.client(first).get("kept") == "yes"


def answers(client: Redis) -> bool:
    """PING works."""
    try:
        return bool(client.ping())
    except RedisError:
        return False
