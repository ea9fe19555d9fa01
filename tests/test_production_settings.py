"""The production settings as ``check --deploy`` sees them (issue 13: "check --deploy warns
W005 and W021: decide, and document").

Decided (docs/production.md): HSTS includes subdomains by default, the
site having a host name of its own; preloading is left to the domain's owner
(SECURE_HSTS_PRELOAD=1), its reminder W021 silenced otherwise. Another process, since the
settings read the environment once.
"""

from __future__ import annotations

import json
import subprocess

from tests.processes import run_manage

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "belote_site.settings.prod",
    "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "belote.example.org",
    "DATABASE_URL": "postgres://belote@127.0.0.1:5432/belote",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return run_manage(*args, env={**PRODUCTION, **env})


def settings_of(*names: str, **env: str) -> dict:
    """The values of the settings ``names`` in production with ``env``."""
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {names!r}}}))"
    )
    done = manage("shell", "--verbosity=0", "--no-startup", "-c", code, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


HSTS = ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SILENCED_SYSTEM_CHECKS")


def test_check_deploy_is_clean():
    done = manage("check", "--deploy", "--fail-level", "WARNING")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "W005" not in done.stdout + done.stderr
    assert "W021" not in done.stdout + done.stderr
    assert "(1 silenced)" in done.stdout  # W021, on purpose


def test_the_defaults_cover_subdomains_and_leave_preloading_to_the_owner():
    assert settings_of(*HSTS, "LANGUAGE_COOKIE_SECURE", "LANGUAGE_COOKIE_SAMESITE") == {
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": False,
        "SILENCED_SYSTEM_CHECKS": ["security.W021"],
        "LANGUAGE_COOKIE_SECURE": True,
        "LANGUAGE_COOKIE_SAMESITE": "Lax",
    }


def test_a_host_with_plain_http_subdomains_turns_them_off_and_is_warned():
    assert settings_of(*HSTS, SECURE_HSTS_INCLUDE_SUBDOMAINS="0")[HSTS[0]] is False

    warned = manage("check", "--deploy", SECURE_HSTS_INCLUDE_SUBDOMAINS="0")
    assert "security.W005" in warned.stderr + warned.stdout


def test_the_domains_owner_asks_for_preloading():
    assert settings_of(*HSTS, SECURE_HSTS_PRELOAD="1") == {
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SILENCED_SYSTEM_CHECKS": [],
    }
