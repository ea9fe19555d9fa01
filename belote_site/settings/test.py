"""Test runs (pytest-django): fast hashing, emails kept in memory.

Background tasks keep the database backend of base.py, so a test sees the same task rows
a worker would; a test runs them with ``call_command("db_worker", "--batch")``.
"""

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
