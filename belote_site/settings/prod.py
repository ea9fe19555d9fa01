"""Production: everything secret or site-specific comes from the environment.

Required: SECRET_KEY, ALLOWED_HOSTS (comma-separated), DATABASE_URL, REDIS_URL.
Optional: CSRF_TRUSTED_ORIGINS (comma-separated, with scheme), TRUSTED_PROXY_COUNT
(default 1), TRUSTED_CLIENT_IP_HEADER, SECURE_SSL_REDIRECT (default "1"),
SECURE_HSTS_SECONDS (default one year), SECURE_HSTS_INCLUDE_SUBDOMAINS (default "1"),
SECURE_HSTS_PRELOAD (default "0"), DEFAULT_FROM_EMAIL, and for SMTP: EMAIL_HOST,
EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *


def require_env(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"The {name} environment variable is required in production.")
    return value


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = False
SECRET_KEY = require_env("SECRET_KEY")
ALLOWED_HOSTS = [host.strip() for host in require_env("ALLOWED_HOSTS").split(",")]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# Several Daphne processes share the database and the Redis channel layer; neither may
# silently fall back to the single-process defaults of base.py.
require_env("DATABASE_URL")
require_env("REDIS_URL")

# HTTPS is terminated by the reverse proxy in front of Daphne.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The rate limits' client address: the last X-Forwarded-For hop, which that proxy added
# (base.py explains; set TRUSTED_PROXY_COUNT to the number of proxies of one's own, or
# TRUSTED_CLIENT_IP_HEADER to a header the proxy overwrites).
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", 1))
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 365 * 24 * 3600))
# HSTS covers the names under the site's own host too (belote.example.org and
# *.belote.example.org, never its siblings): the site is meant to have a host name of its
# own. Turn it off (and read check --deploy's W005) only for a host with subdomains served
# over plain HTTP.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading is the decision of the registrable domain's owner: browsers' preload list
# takes the whole domain, subdomains included, and takes months to leave. Asked for with
# SECURE_HSTS_PRELOAD=1 (then submit the domain at hstspreload.org); otherwise check
# --deploy's reminder (W021) is silenced on purpose. docs/production.md.
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", False)
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_REFERRER_POLICY = "same-origin"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": os.environ.get("EMAIL_HOST", "localhost"),
            "port": int(os.environ.get("EMAIL_PORT", 25)),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_flag("EMAIL_USE_TLS", False),
        },
    }
}
