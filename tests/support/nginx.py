"""nginx configurations read as the deploy tests check them: deploy/nginx.conf and its copy in k8s/proxy.yaml."""

from __future__ import annotations

import re

from tests.support.deploy import the


def nginx_directives(text: str) -> dict[str, list[str]]:
    """Every simple directive of an nginx config (comments dropped): name -> the argument strings, in order."""
    found: dict[str, list[str]] = {}
    pieces = re.split(r"([;{}])", re.sub(r"#[^\n]*", "", text))
    for words, end in zip(pieces[::2], pieces[1::2]):
        if end == ";" and words.split():
            name, *args = words.split()
            found.setdefault(name, []).append(" ".join(args))
    return found


def nginx_size(value: str) -> int:
    """An nginx size (`2097152`, `256k`, `2m`) in bytes."""
    match = re.fullmatch(r"(\d+)([kKmMgG]?)", value)
    assert match, f"not an nginx size: {value!r}"
    return int(match.group(1)) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[match.group(2).lower()]


def nginx_seconds(value: str) -> float:
    """An nginx time (`10s`, `500ms`, `1m`, `10`) in seconds."""
    match = re.fullmatch(r"(\d+)(ms|s|m)?", value)
    assert match, f"not an nginx time: {value!r}"
    return int(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]


def nginx_listen_port(text: str) -> int:
    """The port nginx listens on."""
    (listen,) = nginx_directives(text)["listen"]
    return int(listen.split()[0].rsplit(":", 1)[-1])


def upstream(text: str) -> tuple[str, int]:
    """Host and port of the one upstream server nginx passes requests to."""
    (server,) = nginx_directives(text)["server"]
    host, port = server.split()[0].rsplit(":", 1)
    return host, int(port)


def k8s_nginx_conf() -> str:
    """The nginx.conf of the API pods' proxy (k8s/proxy.yaml)."""
    return the("ConfigMap", "longcards-proxy")["data"]["nginx.conf"]
