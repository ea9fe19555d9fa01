"""Settings shared by every environment; dev, test and prod start with ``from .base import *``.

What depends on where the site runs comes from the environment:

- ``DATABASE_URL``: any URL dj-database-url understands; default is the SQLite file
  ``db.sqlite3`` next to ``manage.py``.
- ``REDIS_URL``: when set, the channel layer goes through Redis (needed as soon as more
  than one Daphne process serves the site); otherwise an in-memory layer, one process only.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = False

INSTALLED_APPS = [
    # First, so that its runserver (ASGI, websockets included) replaces Django's.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_tasks_db",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A NUL in the path, query or form: 400 before anything reads the database with it;
    # a 4xx without a body (a bare 405) gets a page that says what happened.
    "belote_site.middleware.BadRequestMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After LocaleMiddleware and AuthenticationMiddleware: the user's language wins.
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.RefusedFormStatusMiddleware",
]

ROOT_URLCONF = "belote_site.urls"
ASGI_APPLICATION = "belote_site.asgi.application"
# How many requests one Daphne process runs at once (belote_site/handlers.py); the others
# wait for a turn. Several processes serve more (docs/production.md).
ASGI_REQUEST_THREADS = int(os.environ.get("ASGI_REQUEST_THREADS", 4))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.notifications.context_processors.notifications",
            ],
        },
    },
]


# Database: SQLite by default. WAL lets readers go on while one connection writes, and
# IMMEDIATE transactions take the write lock up front, so concurrent writers wait for
# each other (busy timeout) instead of failing half-way with "database is locked". Django's
# backend, but for the wait: belote_site/sqlite retries every fraction of a millisecond.
SQLITE_ENGINE = "belote_site.sqlite"
# Django's PostgreSQL backend, its check of a kept connection made without a round trip.
POSTGRESQL_ENGINE = "belote_site.postgresql"
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
}


CONN_MAX_AGE = 600  # seconds a connection serves requests before a new one is opened


def database_from_env() -> dict:
    """The default database, from DATABASE_URL or the local SQLite file."""
    config = dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_health_checks=True,
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["ENGINE"] = SQLITE_ENGINE
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    elif config["ENGINE"] == "django.db.backends.postgresql":
        config["ENGINE"] = POSTGRESQL_ENGINE
    # Kept from one request to the next by the request threads that Daphne's handler keeps
    # (belote_site/handlers.py, at most ASGI_REQUEST_THREADS of them at work): a new SQLite
    # connection reads the schema again and starts with an empty page cache, a new
    # PostgreSQL one is a new server process. Checked before reuse (conn_health_checks; on
    # PostgreSQL without a round trip, belote_site/postgresql).
    config["CONN_MAX_AGE"] = CONN_MAX_AGE
    return config


DATABASES = {"default": database_from_env()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# Channels: Redis as soon as it is configured, in-memory otherwise. Our messages are only
# "table N is at version V" for the pages open right now (games/live/broadcast.py), so Redis
# pub/sub carries them: one PUBLISH a message, pushed to a single subscription of each
# Daphne process. (channels_redis' list-based layer takes four round trips a message,
# one message at a time for the whole process, and drops what comes in once a process
# lags 100 messages behind: at 100 live tables its pages stopped hearing of moves,
# bench/live_bench.py.) Pub/sub ignores database numbers: the prefix carries it, so that
# sites or benchmarks on other databases of one Redis do not hear each other.
REDIS_URL = os.environ.get("REDIS_URL", "")
# The site works on while Redis is down or out of reach, and heals by itself when it is
# back (docs/production.md, "When Redis goes away"): a move is saved and its follow-ups
# queued whatever the broadcast does, the cache falls back to each process's memory. A
# connection or an answer that takes longer than this fails instead of holding a request
# (redis-py's default is 5 s; Redis answers our small commands in well under a millisecond).
REDIS_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


def redis_connection_options(*, asynchronous: bool) -> dict:
    """The timeouts, and one more try at once on a connection error (none on a timeout):
    a connection kept in a pool from before a restart of Redis fails at its next use,
    and the command goes again on a new one instead of failing too."""
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError

    if asynchronous:
        from redis.asyncio.retry import Retry
    else:
        from redis.retry import Retry
    return {**REDIS_TIMEOUTS, "retry": Retry(NoBackoff(), 1, supported_errors=(ConnectionError,))}


def redis_channel_layers(url: str) -> dict:
    """CHANNEL_LAYERS on the Redis at ``url`` (tests use it on Redis servers of their own)."""
    db = urlsplit(url).path.strip("/") or "0"
    hosts = [{"address": url, **redis_connection_options(asynchronous=True)}]
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": hosts, "prefix": f"belote.db{db}."},
        }
    }


if REDIS_URL:
    CHANNEL_LAYERS = redis_channel_layers(REDIS_URL)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The in-memory layer stays inside its process: a Daphne process then reads the versions
# of its open tables this often, to hear the moves of the task worker (games/live/relay.py).
VERSION_RELAY_SECONDS = 0.5
# And, while pages of the list of open tables are open there, whether that list changed
# (the sweep's closing of a week-old open table, in the worker: games/live/open_tables.py).
OPEN_TABLES_RELAY_SECONDS = 2.0
# Table websockets one user may hold open at one table, and in all, over every process
# (games/live/socket_limits.py): one more is refused with the close code 4429.
LIVE_SOCKETS_PER_TABLE = 8
LIVE_SOCKETS_PER_USER = 32


# Cache: allauth's rate-limit counters and who has a table open (games/tables/presence.py),
# which Daphne writes and the task worker reads (no stand-in for a player who is there, no
# email about a table they have open): shared by every process. Redis when configured,
# through Django's backend with a fallback to the process's memory while Redis does not
# answer (belote_site/cache.py); otherwise files (the embedded default: one Daphne and one
# worker on one machine).
def redis_caches(url: str) -> dict:
    """CACHES on the Redis at ``url``."""
    options = redis_connection_options(asynchronous=False)
    return {
        "default": {"BACKEND": "belote_site.cache.RedisCache", "LOCATION": url, "OPTIONS": options}
    }


if REDIS_URL:
    CACHES = redis_caches(REDIS_URL)
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": BASE_DIR / "var" / "cache",
        }
    }


# Background tasks (django.tasks) are stored in the database and run by `manage.py
# belote_worker` (django-tasks-db's db_worker, which also outlives a database restart:
# games/worker.py).
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        # "analysis": the analysis of finished hands (games/tables/analysis.py), long and
        # never urgent, run by a worker of its own so that it holds up no bot nor clock.
        "QUEUES": ["default", "analysis"],
    }
}


# Sessions in the database, as Django's default, but a cookie that cannot be a session key
# (a NUL in it, say) is no session rather than a query that fails (belote_site/sessions.py).
SESSION_ENGINE = "belote_site.sessions"


# Authentication: our own user model, allauth for sign-up and login by email.
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
# No login before the address is verified; the verification link asks for a POST click.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Belote] "
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USER_DISPLAY = "accounts.models.user_display"
# allauth's default rate limits apply, among them "login_failed": "10/m/ip,5/300s/key" (10
# failed logins a minute per IP, 5 per address in 5 minutes: the address's password is
# then locked, whoever failed). But for the login codes: allauth's "3/m/key" (3 codes a
# minute per address) would let whoever locked the password lock the code out too, so
# the code request counts 3 a minute per address and client (accounts/forms.py), 20 a
# minute per client. They are counted in the default cache, which must therefore be
# shared by every process (see CACHES).
ACCOUNT_RATE_LIMITS = {
    "request_login_code": "20/m/ip",
    "request_login_code_client": "3/m/key",
    # A table's chat (games/tables/chat.py): per user and table, 5 messages in 10 seconds
    # and 30 in 5 minutes.
    "table_chat": "5/10s/key,30/5m/key",
}
ACCOUNT_FORMS = {
    "login": "accounts.forms.LoginForm",
    "request_login_code": "accounts.forms.RequestLoginCodeForm",
}
#
# The client address those "ip" limits count by. Behind a reverse proxy, Daphne's
# --proxy-headers puts the *first* X-Forwarded-For address into the ASGI scope (and so
# REMOTE_ADDR), and that one the client writes itself: a new one on every request would
# escape the limits. allauth takes instead the address TRUSTED_PROXY_COUNT hops from the
# right of X-Forwarded-For, which our own proxies appended, or, when set, the header
# TRUSTED_CLIENT_IP_HEADER that the proxy overwrites (X-Real-IP). 0 and unset (the
# development default: no proxy): the address of the connection. Production defaults to
# one proxy (settings/prod.py; docs/production.md).
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", 0))
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = os.environ.get("TRUSTED_CLIENT_IP_HEADER") or None

# Email (Django 6.1 MAILERS; the EMAIL_* settings are deprecated). Printed on the console
# unless an environment says otherwise.
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Belote <belote@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Links in emails (reminders, unsubscribe) are built on this, there being no request.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")


# Internationalisation: French first, English through the translation catalogues.
LANGUAGE_CODE = "fr"
LANGUAGES = [
    ("fr", "Français"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language cookie goes along with same-site requests and top-level navigations only,
# like the session and CSRF cookies (Django's default for those; none for this one).
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
TIME_ZONE = "Europe/Paris"
USE_TZ = True


# Static files, served by WhiteNoise in every environment.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]


# Content Security Policy: only our own origin, and no inline script or style anywhere.
# Websockets to the same host are covered by 'self' in connect-src.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}


# Time at the tables (games/timing/sweep.py): a bot's move waits BOT_DELAY_SECONDS at a live
# table so that people can follow; a live player gone for LIVE_GRACE_SECONDS (at most half
# the time per move) on their turn is replaced by a bot while another player is at the
# table (with none there, the table pauses: games/tables/attendance.py); the sweep runs every
# SWEEP_SECONDS and plays a bot turn left BOT_STALL_SECONDS without a move; a player may
# declare VACATION_DAYS_PER_YEAR days off a year, an absence at most that long, starting
# at most VACATION_MAX_AHEAD_DAYS from today.
BOT_DELAY_SECONDS = 1
LIVE_GRACE_SECONDS = 60
SWEEP_SECONDS = 60
BOT_STALL_SECONDS = 10
# The expert bot's budget per decision (games/bots/expert.py ``Budget``): deals drawn for a
# card, deals drawn for each contract it weighs when bidding, tricks left from which it
# solves the play exactly, the search nodes after which an exact decision draws no more
# deals (after 6 at least); how it reads the other seats (their bids, a pass weighed by
# the bidding that follows, the opponents' cards: the best fitting of 3 times as many
# draws). README "Bots" gives its speed at these values.
BELOTE_EXPERT_BUDGET = {
    "samples": 24,
    "bid_samples": 32,
    "exact_tricks": 7,
    "exact_nodes": 1_500_000,
    "bid_inference": True,
    "pass_played": True,
    "play_inference": 3,
}
# The analysis of a finished hand (games/tables/analysis.py): the card plays of tricks
# from BELOTE_ANALYSIS_FIRST_TRICK on are weighed (the earlier, the longer: the first
# trick solves the whole hand, 0.14 s a hand on average with the C search, seconds in
# pure Python, see docs/performance.md); a hand whose analysis has not come
# BELOTE_ANALYSIS_WAIT_SECONDS after its end shows none rather than "analyse en cours"
# (a worker down, a hand of before the analysis).
BELOTE_ANALYSIS_FIRST_TRICK = 1
BELOTE_ANALYSIS_WAIT_SECONDS = 3600
# A live table in play that no seated player has had open for LIVE_ABANDON_AFTER_SECONDS
# (paused meanwhile: games/tables/attendance.py) is abandoned, unrated.
LIVE_ABANDON_AFTER_SECONDS = 24 * 3600
# An open asynchronous table still waiting for players OPEN_LOBBY_CLOSE_AFTER_SECONDS after
# it was opened is closed by the sweep (games/tables/open_tables.py).
OPEN_LOBBY_CLOSE_AFTER_SECONDS = 7 * 24 * 3600
VACATION_DAYS_PER_YEAR = 30
VACATION_MAX_AHEAD_DAYS = 365
# The sweep queues the daily digest of turn emails once this hour (TIME_ZONE) has passed.
DIGEST_HOUR = 8
