"""Test runs (pytest-django): fast hashing, emails kept in memory.

Background tasks keep the database backend of base.py, so a test sees the same task rows
a worker would; a test runs them with ``call_command("db_worker", "--batch")``.
"""

import tempfile

from .base import *

DEBUG = False
SECRET_KEY = "django-insecure-test-only"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}

LOGGING = {"version": 1, "disable_existing_loggers": False}

# Serve static files straight from the apps and static/ (no collectstatic before tests),
# which browser tests against live_server need too.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# allauth's rate limits count in the cache: always local memory here, even when REDIS_URL
# is set; tests clear it between runs (tests/accounts/conftest.py).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The SQLite test database is a file, not the in-memory default: the live browser test
# (tests/browser/test_live_hand.py) serves it from a Daphne subprocess, which must open the
# same database. One file per test run, on /dev/shm when there is one (a memory file
# system: as fast as the in-memory database); pytest-django creates and removes it.
if DATABASES["default"]["ENGINE"] == SQLITE_ENGINE:
    _folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
    DATABASES["default"]["TEST"] = {"NAME": str(_folder / f"belote-test-{os.getpid()}.sqlite3")}

# Bots move at once: tests travel in time instead of waiting.
BOT_DELAY_SECONDS = 0
