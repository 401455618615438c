"""Every YAML file under deploy/ (templates included) is there and parses into mappings."""

from __future__ import annotations

import pytest

from tests.support.deploy import DEPLOY, load_docs, yaml_files


def test_deploy_has_the_expected_yaml_files():
    names = {str(p.relative_to(DEPLOY)) for p in yaml_files()}
    assert {"compose.yaml", "k8s/api.yaml", "k8s/proxy.yaml", "k8s/worker.yaml", "k8s/redis.yaml",
            "k8s/secret.yaml.example"} <= names, names


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_yaml_file_parses_into_mappings(path):
    docs = load_docs(path)
    assert docs, f"{path} holds no document"
    assert all(isinstance(doc, dict) for doc in docs), f"{path}: every document must be a mapping"
