"""Fixtures shared by every test package: the flaskr trio (app, client, runner)."""

from __future__ import annotations

import pytest

from service.app import create_app


@pytest.fixture
def app():
    """A test app with default configuration."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A CLI runner for the app."""
    return app.test_cli_runner()
