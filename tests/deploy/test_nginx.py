"""The proxy in front of the API (deploy/nginx.conf, and its copy in k8s/proxy.yaml): slow clients are cut off,
requests and answers buffered, the client's address and the request id forwarded."""

from __future__ import annotations

import pytest

from tests.support.deploy import NGINX_CONF
from tests.support.nginx import k8s_nginx_conf, nginx_directives, nginx_seconds


@pytest.mark.parametrize("source", ["deploy/nginx.conf", "k8s/proxy.yaml"])
def test_nginx_cuts_off_slow_clients(source):
    """Every phase a slow client could stretch has a timeout of its own, short beside gunicorn's."""
    text = NGINX_CONF.read_text(encoding="utf-8") if source == "deploy/nginx.conf" else k8s_nginx_conf()
    directives = nginx_directives(text)
    for name in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert name in directives, f"{source}: no {name}"
        (value,) = directives[name]
        assert 1 <= nginx_seconds(value) <= 30, f"{source}: {name} {value}"


@pytest.mark.parametrize("source", ["deploy/nginx.conf", "k8s/proxy.yaml"])
def test_nginx_buffers_and_forwards_the_client_and_request_id(source):
    text = NGINX_CONF.read_text(encoding="utf-8") if source == "deploy/nginx.conf" else k8s_nginx_conf()
    directives = nginx_directives(text)
    assert directives.get("proxy_buffering") == ["on"] and directives.get("proxy_request_buffering") == ["on"]
    headers = {value.split()[0]: value.split()[1] for value in directives["proxy_set_header"]}
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    assert "X-Request-ID" in headers and headers["X-Request-ID"].startswith("$")
    assert directives["proxy_pass"] == ["http://longcards_api"]
    # A read timeout above gunicorn's worker timeout: gunicorn ends a stuck request first.
    assert nginx_seconds(directives["proxy_read_timeout"][0]) > 30
    # Writable paths only under /tmp (read-only root filesystem, non-root user).
    paths = [directives["pid"][0]] + [v for k, vs in directives.items() if k.endswith("_temp_path") for v in vs]
    assert paths and all(p.startswith("/tmp/") for p in paths), paths
