"""A Redis that fails over, for the tests: a primary, its replica and three Sentinels watching them, all the
embedded redis-server binary (service/runtime/localredis.py's) on free loopback ports in a temporary directory, with
passwords; never the Redis at 127.0.0.1:6379. The Sentinels promote the replica about two seconds after the primary
stops answering (down-after-milliseconds 1000, quorum 2)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

from service.runtime.localredis import redis_server_binary
from tests.support.ports import free_port
from tests.support.processes import wait_for

MASTER = "longcards"
PASSWORD = "data-secret-0123"
SENTINEL_PASSWORD = "sentinel-secret-0123"
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 5000


@dataclass
class RedisGroup:
    """The servers of a group by role, their ports, and the settings the service reaches them with."""

    root: Path
    ports: dict[str, int] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def sentinels(self) -> str:
        """REDIS_SENTINELS."""
        return ",".join(f"127.0.0.1:{self.ports[f'sentinel-{i}']}" for i in (1, 2, 3))

    @property
    def env(self) -> dict[str, str]:
        """The environment the service reaches the group with (REDIS_URL gives only the password and database)."""
        return {"REDIS_SENTINELS": self.sentinels, "REDIS_SENTINEL_MASTER": MASTER,
                "REDIS_SENTINEL_PASSWORD": SENTINEL_PASSWORD, "REDIS_URL": f"redis://:{PASSWORD}@sentinel/0"}

    def node(self, name: str) -> Redis:
        """A direct client of one data node (`primary`, `replica`)."""
        return Redis(port=self.ports[name], password=PASSWORD, socket_connect_timeout=1, socket_timeout=2)

    def sentinel(self, i: int) -> Redis:
        """A client of Sentinel i (1-3)."""
        return Redis(port=self.ports[f"sentinel-{i}"], password=SENTINEL_PASSWORD, socket_timeout=2,
                     decode_responses=True)

    def primary_port(self) -> int | None:
        """The port the Sentinels agree the primary is on (None while they disagree or do not know)."""
        seen = set()
        for i in (1, 2, 3):
            try:
                seen.add(int(self.sentinel(i).execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)[1]))
            except (RedisError, TypeError):
                return None
        return seen.pop() if len(seen) == 1 else None

    def start(self, name: str, argv: list[str]) -> None:
        """Start one server, its output in `<name>.log`."""
        with (self.root / f"{name}.log").open("wb") as log:
            self.processes[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=self.root,
                                                    start_new_session=True)

    def kill(self, name: str) -> None:
        """SIGKILL one server: a lost machine."""
        self.processes[name].send_signal(signal.SIGKILL)
        self.processes[name].wait(timeout=10)

    def pause(self, name: str) -> None:
        """SIGSTOP one server: it holds its connections and answers nothing (a hung machine)."""
        self.processes[name].send_signal(signal.SIGSTOP)

    def resume(self, name: str) -> None:
        """SIGCONT a paused server."""
        self.processes[name].send_signal(signal.SIGCONT)

    def stop_all(self) -> None:
        """Kill every server that still runs."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
                process.wait(timeout=10)


def data_node(group: RedisGroup, name: str, *extra: str) -> list[str]:
    """A data node's command line: loopback, no persistence, passwords for clients and for its own primary."""
    directory = group.root / name
    directory.mkdir()
    return [redis_server_binary(), "--port", str(group.ports[name]), "--bind", "127.0.0.1", "--dir", str(directory),
            "--save", "", "--appendonly", "no", "--requirepass", PASSWORD, "--masterauth", PASSWORD, *extra]


def sentinel_conf(group: RedisGroup, i: int) -> Path:
    """Sentinel i's configuration file (Sentinel rewrites it as it learns the group)."""
    directory = group.root / f"sentinel-{i}"
    directory.mkdir()
    conf = directory / "sentinel.conf"
    conf.write_text("\n".join([
        f"port {group.ports[f'sentinel-{i}']}", "bind 127.0.0.1", f"dir {directory}",
        f"sentinel monitor {MASTER} 127.0.0.1 {group.ports['primary']} 2",
        f"sentinel down-after-milliseconds {MASTER} {DOWN_AFTER_MS}",
        f"sentinel failover-timeout {MASTER} {FAILOVER_TIMEOUT_MS}",
        f"sentinel parallel-syncs {MASTER} 1", f"sentinel auth-pass {MASTER} {PASSWORD}",
        f"requirepass {SENTINEL_PASSWORD}", ""]))
    return conf


def settled(group: RedisGroup) -> bool:
    """The replica is in sync and every Sentinel knows the replica and the two other Sentinels."""
    try:
        if group.node("replica").info("replication").get("master_link_status") != "up":
            return False
        for i in (1, 2, 3):
            sentinel = group.sentinel(i)
            # Raw commands: redis-py parses these replies only for its Sentinel class.
            replicas = sentinel.execute_command("SENTINEL", "REPLICAS", MASTER)
            if len(replicas) < 1 or len(sentinel.execute_command("SENTINEL", "SENTINELS", MASTER)) < 2:
                return False
    except RedisError:
        return False
    return True


@contextlib.contextmanager
def redis_group(root: Path) -> Iterator[RedisGroup]:
    """A primary, a replica and three Sentinels, started and settled (each knows the others); all killed after."""
    root.mkdir(parents=True, exist_ok=True)
    group = RedisGroup(root)
    for name in ("primary", "replica", "sentinel-1", "sentinel-2", "sentinel-3"):
        group.ports[name] = free_port()
    try:
        group.start("primary", data_node(group, "primary"))
        group.start("replica", data_node(group, "replica", "--replicaof", "127.0.0.1", str(group.ports["primary"])))
        for i in (1, 2, 3):
            group.start(f"sentinel-{i}", [redis_server_binary(), str(sentinel_conf(group, i)), "--sentinel"])
        # Sentinels find each other through the primary's hello channel, every 2 s.
        wait_for(lambda: settled(group), 30, "the replica to sync and the Sentinels to find each other", 0.2)
        yield group
    finally:
        group.stop_all()
