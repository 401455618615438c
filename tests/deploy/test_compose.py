"""deploy/compose.yaml: the API, a scalable worker and Redis (AOF on a named volume, a password) that fails over (a
replica and three Sentinels, which the API and the workers ask for the primary), one image from the deploy
Dockerfile, health conditions, and the API reached only through the nginx proxy."""

from __future__ import annotations

import re
import urllib.parse

from tests.support.deploy import (
    API_PORT,
    COMPOSE,
    DOCKERFILE,
    NGINX_CONF,
    PROXY_IMAGE,
    REDIS_START,
    WORKER_ARGV,
    assert_aof,
    bind_port,
    compose,
    compose_service,
)
from tests.support.dockerfile import image_env
from tests.support.nginx import nginx_directives, nginx_listen_port, nginx_size, upstream


def command_argv(value: str | list[str]) -> list[str]:
    """A Compose command as an argv list."""
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def test_compose_has_api_worker_and_redis():
    assert {"api", "worker", "redis"} <= set(compose()["services"])


def test_compose_builds_the_deploy_dockerfile():
    for name in ("api", "worker"):
        service = compose_service(name)
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE.resolve(), name
    assert compose_service("api")["image"] == compose_service("worker")["image"], "api and worker share one image"


def test_compose_redis_runs_with_appendonly_on_a_named_volume():
    redis = compose_service("redis")
    assert redis["image"].split(":")[0] == "redis" and redis["image"].split(":")[1].startswith("7")
    assert_aof(command_argv(redis["command"]))
    volume = next(v for v in redis["volumes"] if v.split(":")[1] == "/data")
    assert volume.split(":")[0] in compose()["volumes"], "the Redis data volume is not a named volume"
    assert "healthcheck" in redis


def test_compose_api_is_reached_only_through_the_proxy():
    api = compose_service("api")
    assert "command" not in api, "the API runs the image's gunicorn CMD"
    assert "ports" not in api, "gunicorn must not be published: clients go through the proxy"
    host, port = upstream(NGINX_CONF.read_text(encoding="utf-8"))
    assert host == "api" and port == API_PORT
    assert bind_port(api["environment"].get("BIND") or image_env()["BIND"]) == API_PORT
    assert str(API_PORT) in [str(p) for p in api.get("expose", [])]
    assert api["environment"]["LONGCARDS_TRUSTED_PROXIES"] == "1"
    check = " ".join(api["healthcheck"]["test"])
    assert f":{API_PORT}/healthz" in check, check


def test_compose_proxy_publishes_8000_with_deploy_nginx_conf():
    proxy = compose_service("proxy")
    assert proxy["image"].split(":")[0] == PROXY_IMAGE
    listen = nginx_listen_port(NGINX_CONF.read_text(encoding="utf-8"))
    published = [str(p).rsplit(":", 2) for p in proxy["ports"]]
    assert [(int(p[-1]), p[-2].endswith(f"{API_PORT}}}") or p[-2] == str(API_PORT)) for p in published] == \
        [(listen, True)], proxy["ports"]
    mounted = {v.split(":")[1]: v.split(":")[0] for v in proxy["volumes"]}
    assert (COMPOSE.parent / mounted["/etc/nginx/nginx.conf"]).resolve() == NGINX_CONF.resolve()
    assert proxy["depends_on"]["api"]["condition"] == "service_healthy"
    assert f":{listen}/healthz" in " ".join(proxy["healthcheck"]["test"])


def test_compose_proxy_body_limit_is_the_api_limit():
    from service.config import DEFAULTS

    configured = compose_service("api")["environment"].get("LONGCARDS_MAX_CONTENT_LENGTH")
    limit = int(configured) if configured else DEFAULTS["MAX_CONTENT_LENGTH"]
    size = nginx_directives(NGINX_CONF.read_text(encoding="utf-8"))["client_max_body_size"]
    assert [nginx_size(v) for v in size] == [limit]


def test_compose_worker_runs_python_m_workers_and_scales():
    worker = compose_service("worker")
    assert command_argv(worker["command"]) == WORKER_ARGV
    assert worker["deploy"]["replicas"] == 2
    # A fixed container name or a published port would make `--scale worker=N` fail.
    assert "container_name" not in worker and "ports" not in worker


def test_compose_depends_on_redis_being_healthy():
    for name in ("api", "worker"):
        depends = compose_service(name)["depends_on"]
        assert depends["redis"]["condition"] == "service_healthy", name
    assert "healthcheck" in compose_service("redis")


def compose_variable(value: str) -> str:
    """The variable a Compose value interpolates: `${NAME}` or `${NAME:?message}`."""
    match = re.fullmatch(r"\$\{(\w+)(:?\?[^}]*)?\}", value)
    assert match, f"not a variable reference: {value!r}"
    return match.group(1)


def test_compose_points_api_and_workers_at_the_redis_service():
    redis = compose_service("redis")
    argv = command_argv(redis["command"])
    assert "--requirepass" in argv, argv
    password = compose_variable(argv[argv.index("--requirepass") + 1])
    assert "?" in argv[argv.index("--requirepass") + 1], "compose must refuse to start without the password"
    assert compose_variable(redis["environment"]["REDISCLI_AUTH"]) == password, "the health check cannot log in"
    for name in ("api", "worker"):
        url = urllib.parse.urlsplit(compose_service(name)["environment"]["REDIS_URL"])
        assert (url.scheme, url.hostname, url.port) == ("redis", "redis", 6379), name
        assert compose_variable(url.password) == password, name
    for name in ("api", "worker"):
        env = compose_service(name)["environment"]
        # Passed through from the shell (no value in the file): no secret is written down here.
        assert "LONGCARDS_WEBHOOK_SECRET" in env and env["LONGCARDS_WEBHOOK_SECRET"] is None, name


def test_compose_redis_fails_over_a_primary_a_replica_and_three_sentinels():
    services = compose()["services"]
    sentinels = sorted(name for name in services if name.startswith("sentinel-"))
    assert sentinels == ["sentinel-1", "sentinel-2", "sentinel-3"]
    data_nodes = ("redis", "redis-replica")
    for name in (*data_nodes, *sentinels):
        service = compose_service(name)
        argv = command_argv(service["command"])
        assert argv[:2] == ["sh", "/usr/local/bin/redis-start.sh"], name
        mounted = {v.split(":")[1]: v.split(":")[0] for v in service["volumes"]}
        assert (COMPOSE.parent / mounted[argv[1]]).resolve() == REDIS_START.resolve(), name
        env = service["environment"]
        assert env["REDIS_SELF"] == name, f"{name} announces another name than its own"
        assert env["SENTINEL_HOSTS"].split() == sentinels and env["REDIS_FIRST"] == "redis", name
        assert "healthcheck" in service and service["restart"] == "unless-stopped", name
    for name in data_nodes:
        argv = command_argv(compose_service(name)["command"])
        assert argv[2:4] == ["redis", "redis-server"], name
        assert_aof(argv)
        assert argv[argv.index("--masterauth") + 1] == argv[argv.index("--requirepass") + 1], name
    replica, primary = (command_argv(compose_service(name)["command"]) for name in ("redis-replica", "redis"))
    assert replica == primary, "the replica is started as the primary is (the script decides its role)"
    volumes = [v.split(":")[0] for name in (*data_nodes, *sentinels) for v in compose_service(name)["volumes"]
               if v.split(":")[1] == "/data"]
    assert len(set(volumes)) == 5 and set(volumes) <= set(compose()["volumes"]), "each keeps its data apart"


def test_compose_api_and_workers_find_the_primary_through_the_sentinels():
    redis = compose_service("redis")
    password = compose_variable(redis["environment"]["REDIS_PASSWORD"])
    for name in ("api", "worker"):
        service = compose_service(name)
        env = service["environment"]
        assert env["REDIS_SENTINELS"] == "sentinel-1:26379,sentinel-2:26379,sentinel-3:26379", name
        assert env["REDIS_SENTINEL_MASTER"] == redis["environment"]["SENTINEL_MASTER"], name
        assert compose_variable(env["REDIS_SENTINEL_PASSWORD"]) == password, name
        for sentinel in ("sentinel-1", "sentinel-2", "sentinel-3"):
            assert service["depends_on"][sentinel]["condition"] == "service_healthy", name
