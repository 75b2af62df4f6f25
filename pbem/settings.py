"""Settings from the environment, with safe embedded defaults.

Nothing set: SQLite under var/, tasks run in process, outbound mail caught in a
Maildir under var/. Set DATABASE_URL, CELERY_BROKER_URL and EMAIL_HOST to run
distributed. Every name is documented in README.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PBEM_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


DEBUG = env_bool("DEBUG", False)
_secret = os.environ.get("SECRET_KEY", "")
if not _secret:
    if not DEBUG and not env_bool("PBEM_EMBEDDED", True):
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off and PBEM_EMBEDDED=0")
    # Why: the embedded default must start with zero configuration on a laptop;
    # a distributed deployment sets PBEM_EMBEDDED=0 and must bring its own key.
    _secret = "pbem-insecure-development-key-do-not-use-in-production"
SECRET_KEY = _secret

ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "pbem.games",
    "pbem.tokens",
    "pbem.webhooks",
    "pbem.mail.apps.MailConfig",
    "anymail",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "pbem.headers.ContentSecurityPolicyMiddleware",
    # Why before CommonMiddleware: a CORS preflight is answered here, before any
    # authentication or redirect, as browsers require.
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Why: a password door (the log-in pages, the admin's) answers a lockout with 429 (pbem/tokens/lockout.py).
    "pbem.tokens.lockout.LockoutMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Why after authentication: the admin's pages speak the staff account's player's language (issue 27).
    "pbem.games.language.AdminLanguageMiddleware",
    # request.htmx: the personal page answers htmx's in-place updates with the parts that change.
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pbem.urls"
#: After the browsable API's log-in (Django's default, /accounts/profile/, does not exist here).
LOGIN_REDIRECT_URL = "/api/v1/me/"
LOGIN_URL = "/api/v1/auth/login/"
#: Every password check (the API's token door, the log-in pages, the admin) counts against one lockout
#: per account and per client address (pbem/tokens/lockout.py).
AUTHENTICATION_BACKENDS = ["pbem.tokens.lockout.LockoutBackend"]
PBEM_LOGIN_FAILURES = int(os.environ.get("PBEM_LOGIN_FAILURES", "10"))
PBEM_LOGIN_ADDRESS_FAILURES = int(os.environ.get("PBEM_LOGIN_ADDRESS_FAILURES", "30"))
PBEM_LOGIN_WINDOW = int(os.environ.get("PBEM_LOGIN_WINDOW", str(15 * 60)))
#: Proxies in front of the web service that append the client's address to X-Forwarded-For (a
#: TLS-terminating proxy: 1). 0: the client address is REMOTE_ADDR. Behind a proxy, leaving it 0
#: makes every client one address for the lockout (and DRF's throttles: NUM_PROXIES below).
PBEM_PROXY_COUNT = int(os.environ.get("PBEM_PROXY_COUNT", "0"))
WSGI_APPLICATION = "pbem.wsgi.application"
ASGI_APPLICATION = "pbem.asgi.application"
#: Set by pbem/asgi.py: this process serves the web under ASGI (gunicorn's uvicorn workers, uvicorn,
#: ``manage.py runall``); see the database section.
PBEM_ASGI = env_bool("PBEM_ASGI", False)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ---- HTTPS and browsers -----------------------------------------------------------
#: Served over HTTPS (by default: when the public URL is https://, as in any real deployment):
#: HSTS, secure cookies, and plain-HTTP requests redirected. A TLS-terminating proxy in front
#: must set X-Forwarded-Proto.
PBEM_HTTPS = env_bool("PBEM_HTTPS", os.environ.get("PBEM_PUBLIC_URL", "").startswith("https://"))
if PBEM_HTTPS:
    SECURE_SSL_REDIRECT = env_bool("PBEM_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("PBEM_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("PBEM_HSTS_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("PBEM_HSTS_PRELOAD", False)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Why silenced unless chosen: check --deploy asks for HSTS preload, a decision for the domain's owner.
    SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

#: Browser front ends on other origins (comma-separated, e.g. https://app.example.org) may call
#: the API with a token; a preflight is answered without authentication.
CORS_ALLOWED_ORIGINS = [o.strip() for o in os.environ.get("PBEM_CORS_ORIGINS", "").split(",") if o.strip()]
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = ("accept", "authorization", "content-type", "if-match", "if-none-match", "idempotency-key",
                      "last-event-id", "user-agent", "x-requested-with")
CORS_EXPOSE_HEADERS = ("etag", "location", "retry-after", "ratelimit-limit", "ratelimit-remaining",
                       "ratelimit-reset", "idempotency-replayed")
CORS_PREFLIGHT_MAX_AGE = 3600

# ---- database --------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if not DATABASE_URL:
    # Why here: SQLite creates the file but not its folder, and a fresh checkout has no var/.
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASE_URL = f"sqlite:///{VAR_DIR / 'pbem.sqlite3'}"
# Why persistent connections with health checks: a web request and a worker task would
# otherwise each pay a new PostgreSQL connection; a connection that died (a server restart,
# a failover) is noticed before its next use instead of failing that request or task.
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
                                              conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Why: SQLite has no row locks; IMMEDIATE transactions take the write lock at
    # BEGIN so two writers queue on the busy timeout instead of losing an update.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif PBEM_ASGI and env_bool("PBEM_DB_POOL", True):
    # Why a pool under ASGI: each request's sync code runs in a thread of its own, so a persistent
    # connection would be left behind with its thread (Django's docs: use a pool instead); the
    # waiting streams take a connection only for each read (pbem/api/aio.py).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": int(os.environ.get("PBEM_DB_POOL_SIZE", "10")), "timeout": 20}
if PBEM_ASGI:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("PBEM_DB_PREPARE", True):
    # Why server-side binding: Django's default quotes every parameter into the SQL text in
    # Python, and PostgreSQL then parses and plans each statement anew; bound parameters let
    # psycopg prepare a statement a connection has run PBEM_DB_PREPARE_THRESHOLD times (a
    # worker's move runs the same few statements every time) and reuse its plan. Prepared
    # statements live in one server session, which a transaction-pooling PgBouncer (before
    # 1.21's max_prepared_statements) does not keep: PBEM_DB_PREPARE=0 behind one.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "server_side_binding": True,
        "prepare_threshold": int(os.environ.get("PBEM_DB_PREPARE_THRESHOLD", "5"))})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---- caches (Redis when given) ---------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# ---- tasks -------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
#: No broker: tasks run in this process right after the transaction commits.
PBEM_TASKS_IN_PROCESS = not CELERY_BROKER_URL
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# ---- mail ---------------------------------------------------------------------------
PBEM_MAIL_DOMAIN = os.environ.get("PBEM_MAIL_DOMAIN", "pbem.localhost")
#: Days a sent mail's bodies (and a judged mail's raw bytes) are kept; see pbem/mail/retention.py.
PBEM_MAIL_BODY_DAYS = float(os.environ.get("PBEM_MAIL_BODY_DAYS", "7"))
PBEM_FROM_EMAIL = os.environ.get("PBEM_FROM_EMAIL", f"pbem@{PBEM_MAIL_DOMAIN}")
#: VERP: each mail's envelope sender is its own return path, PBEM_BOUNCE_LOCAL+<row>-<signature>@
#: PBEM_MAIL_DOMAIN, so a bounce says which mail (and address) failed (pbem.mail.bounces). Off:
#: the envelope sender is PBEM_FROM_EMAIL (a relay that allows no other sender).
PBEM_VERP = env_bool("PBEM_VERP", True)
PBEM_BOUNCE_LOCAL = os.environ.get("PBEM_BOUNCE_LOCAL", "bounces")
PBEM_HTTP_ADDR = os.environ.get("PBEM_HTTP_ADDR", "127.0.0.1:8000")


def _public_url_from(http_addr: str) -> str:
    """Where `make run` serves, as a link: a wildcard host (0.0.0.0, ::) is this machine."""
    host, _, port = http_addr.rpartition(":")
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


#: Base of the links in mails. Unset: derived from PBEM_HTTP_ADDR, so moving `make run` to
#: another port moves the links with it; a deployment behind a proxy sets its public https URL.
PBEM_PUBLIC_URL = (os.environ.get("PBEM_PUBLIC_URL") or _public_url_from(PBEM_HTTP_ADDR)).rstrip("/")
PBEM_SMTP_ADDR = os.environ.get("PBEM_SMTP_ADDR", "127.0.0.1:2525")
PBEM_SMTP_MAX_SIZE = int(os.environ.get("PBEM_SMTP_MAX_SIZE", str(2 * 1024 * 1024)))
#: Threads (each with its own database connection) the SMTP ingress checks recipients and stores
#: mail in, so that one session's check never waits behind another's INSERT (one on SQLite).
PBEM_SMTP_DB_THREADS = int(os.environ.get("PBEM_SMTP_DB_THREADS", "4"))
# Who reads mail sent to postmaster@ (and to a bare "postmaster"): comma-separated addresses.
# Unset: every active superuser with an address; with none, the mail stays in the admin only.
PBEM_POSTMASTER_EMAIL = [a.strip() for a in os.environ.get("PBEM_POSTMASTER_EMAIL", "").split(",") if a.strip()]
#: Who hears, besides the staff accounts, that a game waits on a moderator (docs/moderation.md).
PBEM_MODERATOR_EMAILS = [a.strip() for a in os.environ.get("PBEM_MODERATOR_EMAILS", "").split(",") if a.strip()]
#: Hours before a deadline that the seats to move hear "N hours left" (half a shorter period).
PBEM_WARN_HOURS = float(os.environ.get("PBEM_WARN_HOURS", "24"))
PBEM_MAILDIR = Path(os.environ.get("PBEM_MAILDIR", VAR_DIR / "maildir"))
DEFAULT_FROM_EMAIL = PBEM_FROM_EMAIL
SERVER_EMAIL = PBEM_FROM_EMAIL
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    # Why not Django's own: it opened a new SMTP session for every mail (issue 28; pbem/mail/kept.py).
    EMAIL_BACKEND = "pbem.mail.kept.KeptSMTPBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
    # Why short: a send must end well within sending.SEND_DEADLINE (see workers/tasks.py).
    EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
    #: Seconds a worker keeps its connection to the relay after a mail (0: a session a mail).
    PBEM_SMTP_KEEP_SECONDS = float(os.environ.get("PBEM_SMTP_KEEP_SECONDS", "30"))
else:
    EMAIL_BACKEND = "pbem.mail.maildir.MaildirBackend"

#: A mail provider (django-anymail) instead of SMTP: mail goes out through its API, and its
#: inbound and tracking webhooks are served under /anymail/<provider>/ (pbem.mail.providers).
#: Its settings come from ANYMAIL_* variables (ANYMAIL_MAILGUN_API_KEY, ANYMAIL_POSTMARK_SERVER_TOKEN,
#: ANYMAIL_WEBHOOK_SECRET=user:password...), as anymail names them, without the prefix.
MAIL_PROVIDERS = ("mailgun", "postmark", "sendgrid", "amazon_ses")
PBEM_MAIL_PROVIDER = os.environ.get("PBEM_MAIL_PROVIDER", "").strip().lower()
if PBEM_MAIL_PROVIDER and PBEM_MAIL_PROVIDER not in MAIL_PROVIDERS:
    raise ImproperlyConfigured(f"PBEM_MAIL_PROVIDER must be one of {', '.join(MAIL_PROVIDERS)}")
if PBEM_MAIL_PROVIDER:
    EMAIL_BACKEND = f"anymail.backends.{PBEM_MAIL_PROVIDER}.EmailBackend"
ANYMAIL: dict[str, Any] = {k.removeprefix("ANYMAIL_"): v for k, v in os.environ.items()
                           if k.startswith("ANYMAIL_") and v}
if "AMAZON_SES_REGION" in ANYMAIL:
    ANYMAIL["AMAZON_SES_CLIENT_PARAMS"] = {"region_name": ANYMAIL.pop("AMAZON_SES_REGION")}
#: Amazon SNS signs each message; its signing certificate is fetched from a URL on this host only.
PBEM_SNS_CERT_HOST = os.environ.get("PBEM_SNS_CERT_HOST", r"^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$")
#: An LMTP listener beside the SMTP one, for an MTA in front (manage.py smtpd); empty: none.
PBEM_LMTP_ADDR = os.environ.get("PBEM_LMTP_ADDR", "")

# ---- REST ---------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "pbem.api.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Why JSON only, through our parser: a size and depth bound at the door (see pbem/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["pbem.api.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Why: ?format= wins over the Accept header (DRF's default makes it a 406): pbem/api/negotiation.py.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "pbem.api.negotiation.UrlFormatFirst",
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.URLPathVersioning",
    "ALLOWED_VERSIONS": ["v1"],
    "DEFAULT_VERSION": "v1",
    "NUM_PROXIES": PBEM_PROXY_COUNT or None,
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Lenient on purpose: a guard against runaway clients, not a security measure
    # (DRF's own docs say so); the views pick the scopes.
    "DEFAULT_THROTTLE_RATES": {
        "anon": "600/min",
        "user": "3000/min",
        "moves": "600/min",
        "actions": "300/min",
        "auth": "30/min",
    },
}
#: Largest API request body in bytes (a move batch is a few KB): larger ones get a 413.
PBEM_API_MAX_BODY = int(os.environ.get("PBEM_API_MAX_BODY", str(64 * 1024)))
#: Longest ``?wait=`` for a move's decision (seconds; the API allows 10); past it, 202 + Location +
#: Retry-After. Under ASGI a wait holds no worker (pbem/api/aio.py).
PBEM_API_MAX_WAIT = float(os.environ.get("PBEM_API_MAX_WAIT", "10"))
#: Longest an event stream (/api/v1/games/{id}/stream/, /api/v1/me/stream/) stays open (seconds);
#: the client then reconnects with Last-Event-ID. Under ASGI an open stream holds no worker.
PBEM_API_STREAM_SECONDS = float(os.environ.get("PBEM_API_STREAM_SECONDS", "300"))
#: How often the streams look for new rows (seconds): one small query per web process.
PBEM_API_STREAM_POLL = float(os.environ.get("PBEM_API_STREAM_POLL", "0.5"))
#: Webhooks to loopback or private addresses (a receiver on this machine); off in production.
PBEM_WEBHOOK_ALLOW_PRIVATE = os.environ.get("PBEM_WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true", "True", "yes")
SPECTACULAR_SETTINGS = {
    "TITLE": "pbem API",
    "DESCRIPTION": "Create, join, watch and play asynchronous board games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "pbem.api.schema.postprocess"],
    "COMPONENT_SPLIT_REQUEST": True,
    # Why: the game's status appears in several components (games, stream events); one enum for all.
    # And the option spec's type keeps its name beside the stream lines' own `type`.
    "ENUM_NAME_OVERRIDES": {"GameOutStatusEnum": "pbem.games.models.Game.Status",
                            "TypeEnum": ["int", "bool", "choice", "intlist"]},
    # Why: the docs pages must work on a machine with no internet access.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# ---- misc -----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
#: The languages a player may choose (issue 27): a catalogue each in pbem/locale (pbem.games.language).
LANGUAGES = [("en", "English"), ("pt", "Português")]
LOCALE_PATHS = [BASE_DIR / "pbem" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
