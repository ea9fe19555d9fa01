"""Local development: DEBUG on, emails written as text files under var/mail/
(belote_site/dev_mail.py), links in emails on the address `make run` serves."""

from .base import *

DEBUG = True
SECRET_KEY = "django-insecure-dev-only-never-use-in-production"
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

MAILERS = {"default": {"BACKEND": "belote_site.dev_mail.EmailBackend"}}
# scripts/run-dev exports the address it serves; the same default as its own.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
