"""docker-compose.yml and the Dockerfile stay in step with pbem/settings.py and the commands that exist.

No Docker engine is needed: the file is parsed as YAML (merge keys included) and
checked against the settings module's own source.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
APP_SERVICES = ("web", "worker", "beat", "smtpd")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = compose["services"]
    return result


def settings_env_names() -> set[str]:
    """Every environment variable pbem/settings.py reads, found in its syntax tree.

    Counts ``os.environ.get("X")``, ``os.environ["X"]``, ``os.getenv("X")``,
    ``os.environ.setdefault("X", ...)`` and helpers named ``env*("X", ...)``.
    """
    tree = ast.parse((ROOT / "pbem" / "settings.py").read_text())
    names: set[str] = set()

    def const(node: ast.AST) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def is_environ(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ"

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and (name := const(node.args[0])):
            func = node.func
            environ_call = isinstance(func, ast.Attribute) and (
                (func.attr in ("get", "setdefault", "pop") and is_environ(func.value)) or func.attr == "getenv"
            )
            helper_call = isinstance(func, ast.Name) and func.id.startswith("env")
            if environ_call or helper_call:
                names.add(name)
        elif isinstance(node, ast.Subscript) and is_environ(node.value) and (name := const(node.slice)):
            names.add(name)
    return names


def env_of(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {k: str(v) for k, v in env.items()}


def default_of(value: str) -> str:
    """``${NAME:-default}`` -> default; a plain value -> itself."""
    m = re.fullmatch(r"\$\{\w+:-(.*)\}", value)
    return m.group(1) if m else value


def command_text(service: dict[str, Any]) -> str:
    cmd = service.get("command", "")
    return " ".join(cmd) if isinstance(cmd, list) else str(cmd)


def test_settings_scan_finds_the_known_names() -> None:
    names = settings_env_names()
    expected = {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "PBEM_EMBEDDED",
                "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD", "EMAIL_USE_TLS",
                "PBEM_MAIL_DOMAIN", "PBEM_PUBLIC_URL", "PBEM_HTTP_ADDR", "PBEM_SMTP_ADDR", "ALLOWED_HOSTS"}
    assert expected <= names, f"settings.py no longer reads {sorted(expected - names)}"


def test_every_service_is_there(services: dict[str, dict[str, Any]]) -> None:
    assert set(services) >= {"postgres", "redis", "web", "worker", "beat", "smtpd", "mailpit"}
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_env_names_are_read_by_settings(services: dict[str, dict[str, Any]], name: str) -> None:
    env = env_of(services[name])
    unknown = sorted(set(env) - settings_env_names())
    assert not unknown, f"{name} sets {unknown}, which pbem/settings.py never reads"
    required = {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "SECRET_KEY", "PBEM_EMBEDDED", "EMAIL_HOST",
                "PBEM_SMTP_ADDR", "ALLOWED_HOSTS"}
    assert required <= set(env), f"{name} lacks {sorted(required - set(env))}"
    assert env["PBEM_EMBEDDED"] == "0"
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?"), "the secret key must come from the environment"


def test_urls_point_at_the_right_services(services: dict[str, dict[str, Any]]) -> None:
    pg_env = env_of(services["postgres"])
    for name in APP_SERVICES:
        env = env_of(services[name])
        db = urlsplit(env["DATABASE_URL"])
        assert db.scheme in ("postgres", "postgresql")
        assert db.hostname == "postgres" and (db.port or 5432) == 5432
        assert db.path.lstrip("/") == pg_env["POSTGRES_DB"]
        assert db.username == pg_env["POSTGRES_USER"] and db.password == pg_env["POSTGRES_PASSWORD"]
        broker, cache = urlsplit(env["CELERY_BROKER_URL"]), urlsplit(env["REDIS_URL"])
        assert broker.hostname == cache.hostname == "redis"
        assert broker.path != cache.path, "broker and cache share a Redis database"
        assert default_of(env["EMAIL_HOST"]) == "mailpit" and default_of(env["EMAIL_PORT"]) == "1025"
        assert default_of(env["EMAIL_USE_TLS"]) in ("0", "false", "no")


def test_commands(services: dict[str, dict[str, Any]]) -> None:
    assert "manage.py migrate" in command_text(services["web"])
    # ASGI: the event streams and ?wait= hold no worker (tests/api/test_asgi.py runs this command).
    assert "gunicorn pbem.asgi:application --worker-class uvicorn_worker.UvicornWorker" in command_text(services["web"])
    assert "celery -A workers worker" in command_text(services["worker"])
    assert "celery -A workers beat" in command_text(services["beat"])
    assert "manage.py smtpd" in command_text(services["smtpd"])


def test_the_image_serves_asgi_by_default() -> None:
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    assert json.loads(cmd[4:])[:4] == ["gunicorn", "pbem.asgi:application", "--worker-class",
                                       "uvicorn_worker.UvicornWorker"]


def test_smtp_port_matches_the_listen_address(services: dict[str, dict[str, Any]]) -> None:
    port = env_of(services["smtpd"])["PBEM_SMTP_ADDR"].rsplit(":", 1)[1]
    assert any(str(p).endswith(f":{port}") for p in services["smtpd"]["ports"])


def test_exactly_one_beat(services: dict[str, dict[str, Any]]) -> None:
    beat = services["beat"]
    assert int(beat.get("deploy", {}).get("replicas", 1)) == 1
    assert int(beat.get("scale", 1)) == 1


def test_workers_can_scale(services: dict[str, dict[str, Any]]) -> None:
    worker = services["worker"]
    assert "container_name" not in worker
    assert "ports" not in worker
    assert int(worker.get("deploy", {}).get("replicas", 1)) >= 1


def test_dependencies_wait_for_health(services: dict[str, dict[str, Any]]) -> None:
    for name in APP_SERVICES:
        deps = services[name].get("depends_on")
        assert isinstance(deps, dict) and "redis" in deps, f"{name} must wait for its services"
        for dep, spec in deps.items():
            assert spec.get("condition") == "service_healthy", f"{name} -> {dep}"
            assert "healthcheck" in services[dep], f"{name} waits for {dep}, which has no healthcheck"
    for name in ("web", "worker", "smtpd"):
        assert "postgres" in services[name]["depends_on"]


def test_dockerfile() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert "pip install" in text and "pyproject.toml" in text
    assert "EXPOSE 8000 2525" in text


def test_the_commands_compose_and_make_run_exist() -> None:
    from django.core.management import get_commands

    commands = get_commands()
    missing = [c for c in ("migrate", "smtpd", "runall", "spectacular") if c not in commands]
    assert not missing, f"docker-compose.yml / Makefile run management commands that do not exist: {missing}"
    assert (ROOT / "workers" / "celery.py").exists() or (ROOT / "workers" / "__init__.py").exists(), \
        "docker-compose.yml runs `celery -A workers`, but there is no workers package"


def test_it_checks_the_web_health_on_healthz(services: dict[str, dict[str, Any]]) -> None:
    """The web container is healthy when /healthz says so (database, broker, queues), not when a port opens."""
    test = " ".join(services["web"]["healthcheck"]["test"])
    assert "http://127.0.0.1:8000/healthz" in test and "X-Forwarded-Proto" in test  # no https redirect
    assert 'path("healthz"' in (ROOT / "pbem" / "urls.py").read_text()  # (docs/operations.md's block runs it)


def test_it_points_the_dockerfile_at_a_readme_heading_that_exists() -> None:
    headings = re.findall(r"^#+ (.+)$", (ROOT / "README.md").read_text(), re.M)
    for cited in re.findall(r'README\.md "([^"]+)"', (ROOT / "Dockerfile").read_text()):
        assert cited in headings, f"the Dockerfile cites README.md \"{cited}\", which is not a heading"
