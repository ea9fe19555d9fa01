"""The systemd units of deploy/: what production needs to keep the site running.

Issue 13: "Ship what production needs to keep it running, for example systemd units for
Daphne and the worker under deploy/." Each unit runs a command that exists, the
long-running ones come back whatever ends them, and the worker is the one that outlives
a database restart.
"""

from __future__ import annotations

import configparser
import shlex

import pytest
from django.core.management import get_commands

from tests.processes import ROOT

DEPLOY = ROOT / "deploy"
LONG_RUNNING = [
    "belote-daphne@.service",
    "belote-worker@.service",
    "belote-analysis-worker.service",
]


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DEPLOY / name)
    return parser


def commands(name: str) -> list[list[str]]:
    service = unit(name)["Service"]
    lines = [service.get(key) for key in ("ExecStartPre", "ExecStart") if service.get(key)]
    return [shlex.split(line.lstrip("-")) for line in lines]


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_a_long_running_unit_is_always_restarted(name):
    parsed = unit(name)

    assert parsed["Service"]["Restart"] == "always"
    assert parsed["Unit"]["StartLimitIntervalSec"] == "0"  # never gives up
    assert parsed["Unit"]["PartOf"] == "belote.target"
    assert parsed["Install"]["WantedBy"] == "belote.target"


def test_the_worker_unit_runs_the_worker_that_outlives_the_database():
    ran = [command[2] for command in commands("belote-worker@.service")]

    assert ran == ["belote_sweep", "belote_worker"]


def test_the_analysis_has_a_worker_of_its_own_that_the_other_leaves_it_to():
    (command,) = commands("belote-analysis-worker.service")

    assert command[2] == "belote_worker"
    assert command[command.index("--queue-name") + 1] == "analysis"
    assert int(unit("belote-analysis-worker.service")["Service"]["Nice"]) > 0
    (other,) = [c for c in commands("belote-worker@.service") if c[2] == "belote_worker"]
    assert "--queue-name" not in other  # the default queue only


def test_every_manage_py_command_of_the_units_exists():
    available = get_commands()
    names = [path.name for path in DEPLOY.glob("*.service")]

    for name in names:
        for command in commands(name):
            if command[1:2] == ["manage.py"]:
                assert command[2] in available, f"{name}: no command {command[2]}"
    assert "belote-health.service" in names


def test_daphne_runs_the_site_behind_the_proxy_on_its_instance_port():
    (command,) = commands("belote-daphne@.service")

    assert command[-1] == "belote_site.asgi:application"
    assert "--proxy-headers" in command
    assert command[command.index("-p") + 1] == "%i"


def test_the_environment_example_sets_every_variable_production_requires():
    example = (DEPLOY / "belote.env.example").read_text()
    settings = [line for line in example.splitlines() if line and not line.startswith("#")]
    names = {line.split("=", 1)[0] for line in settings}

    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"} <= names
    assert "DJANGO_SETTINGS_MODULE=belote_site.settings.prod" in example
    for name in [p.name for p in DEPLOY.glob("*.service")]:
        assert unit(name)["Service"]["EnvironmentFile"] == "/etc/belote/belote.env"
