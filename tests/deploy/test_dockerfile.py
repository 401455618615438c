"""deploy/Dockerfile: built from python:3.11-slim, the project installed with pip (not editable, no source tree),
only files that exist copied (and kept by the .dockerignore), a numeric non-root user, gunicorn with
deploy/gunicorn.conf.py on `service.app:create_app()` on 0.0.0.0:8000, and the entry point script."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from tests.support.deploy import API_PORT, APP_TARGET, DEPLOY, ENTRYPOINT, ROOT, bind_port
from tests.support.dockerfile import copied_to, copies, dockerfile_instructions, exec_form, final_stage, image_env


def test_dockerfile_builds_from_python_311_slim():
    instructions = dockerfile_instructions()
    froms = [rest.split()[0] for kw, rest in instructions if kw == "FROM"]
    assert froms and all(image == "python:3.11-slim" for image in froms), froms
    assert final_stage()[0][1].split()[0] == "python:3.11-slim"


def test_dockerfile_installs_the_project_with_pip_not_editable():
    runs = " ".join(rest for kw, rest in dockerfile_instructions() if kw == "RUN")
    assert re.search(r"\bpip (install|wheel)\b", runs), "the project is not installed with pip"
    assert not re.search(r"pip install\b[^&;]*(\s-e\s|--editable)", runs), "the install is editable"
    final_runs = " ".join(rest for kw, rest in final_stage() if kw == "RUN")
    assert "pip install" in final_runs and "longcards-service" in final_runs, "the image does not install the project"
    # No source tree in the image: an import of `service` must find site-packages, not a copied folder.
    copied_sources = [s for flags, _, sources in copies() if not any(f.startswith("--from") for f in flags)
                      for s in sources]
    assert not {"service", "workers", "."} & {s.rstrip("/") for s in copied_sources}, copied_sources


def test_dockerfile_copies_only_files_that_exist():
    for keyword, rest in dockerfile_instructions():
        if keyword != "COPY" or "--from" in rest:
            continue
        sources = [w for w in rest.split() if not w.startswith("--")][:-1]
        for source in sources:  # a pattern (`docs/rules*.md`) must match at least one file
            assert any(ROOT.glob(source)), f"COPY {source}: no such file in the build context (the repository root)"


def test_dockerfile_runs_as_a_non_root_user():
    users = [rest for kw, rest in final_stage() if kw == "USER"]
    assert users, "the image runs as root (no USER)"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0"), users[-1]
    assert user.isdigit(), "a numeric USER lets Kubernetes check runAsNonRoot"


def test_dockerfile_cmd_is_gunicorn_with_the_deploy_config_and_the_app_factory():
    cmd = exec_form("CMD")
    assert Path(cmd[0]).name == "gunicorn", cmd
    assert APP_TARGET in cmd, cmd
    config_flag = "--config" if "--config" in cmd else "-c"
    assert config_flag in cmd, f"CMD gives gunicorn no config: {cmd}"
    config = cmd[cmd.index(config_flag) + 1]
    assert config.endswith("deploy/gunicorn.conf.py"), config
    assert copied_to("deploy/gunicorn.conf.py") == config, "CMD's config is not where the Dockerfile copies it"
    assert (DEPLOY / "gunicorn.conf.py").is_file()


def test_dockerfile_listens_on_all_interfaces_port_8000():
    assert bind_port(image_env()["BIND"]) == API_PORT
    assert image_env()["BIND"].rsplit(":", 1)[0] in ("0.0.0.0", "[::]"), "BIND must not be loopback in a container"
    exposed = [int(p.split("/")[0]) for kw, rest in final_stage() if kw == "EXPOSE" for p in rest.split()]
    assert API_PORT in exposed


def test_dockerfile_entrypoint_is_the_copied_script():
    entrypoint = exec_form("ENTRYPOINT")
    assert copied_to("deploy/docker-entrypoint.sh") in entrypoint, entrypoint
    assert ENTRYPOINT.read_text(encoding="utf-8").rstrip().endswith('exec "$@"'), "the entry point must exec its args"


def test_dockerignore_keeps_what_the_dockerfile_copies():
    ignore = DEPLOY / "Dockerfile.dockerignore"
    patterns = [line.strip() for line in ignore.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    assert ".venv" in patterns and ".git" in patterns
    for keyword, rest in dockerfile_instructions():
        if keyword == "COPY" and "--from" not in rest:
            for source in [w for w in rest.split() if not w.startswith("--")][:-1]:
                hits = [p for p in patterns if not p.startswith("!") and
                        (fnmatch.fnmatch(source, p) or fnmatch.fnmatch(source.split("/")[0], p))]
                assert not hits, f"{source} is copied but excluded by {hits}"
