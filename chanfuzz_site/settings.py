"""Django settings for chanfuzz, read from the environment (runners/config.py) with defaults fit
for development.

Variables (see README "Configuration"; runners/config.py has them all):
  DJANGO_SECRET_KEY     production: set it; unset, a random key kept in the var dir
  DJANGO_DEBUG          default false (scripts/run.sh turns it on for local use)
  DJANGO_HTTPS          default: on when debug is off (HTTPS redirect, secure cookies, HSTS)
  DJANGO_ALLOWED_HOSTS  comma-separated, default localhost,127.0.0.1,[::1]
  DATABASE_URL          default sqlite:///<CHANFUZZ_VAR_DIR>/db.sqlite3; postgres://… works too
  REDIS_URL             default redis://127.0.0.1:6379/0: the RQ queue and the rate limits
  CHANFUZZ_VAR_DIR      where run-time data lives, default <repo>/var
  CHANFUZZ_LOG_FORMAT   json (default with debug off) or text; CHANFUZZ_LOG_LEVEL, INFO

With only DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS set, `manage.py check --deploy
--fail-level WARNING` is clean: the defaults are the production ones.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from runners import config, logs

BASE_DIR = Path(__file__).resolve().parent.parent
DEV_SECRET_KEY = config.DEV_SECRET_KEY

try:
    DEBUG = config.django_debug()
    SECRET_KEY = config.django_secret_key(DEBUG)
    ALLOWED_HOSTS = config.django_allowed_hosts()
    VAR_DIR = config.var_dir().resolve()
    REDIS_URL = config.redis_url()
    _DATABASE_URL = config.database_url()
    _HTTPS = config.django_https(DEBUG)
    _TLS_PROXY = config.django_tls_proxy()
    _HSTS_SECONDS = config.django_hsts_seconds()
    OPEN_SIGNUP = config.open_signup()
    QUOTAS = config.quotas()
    RATELIMIT_PLAYGROUND = config.ratelimit_playground()
    RATELIMIT_RUNS = config.ratelimit_runs()
    _LOG_FORMAT = config.log_format(DEBUG)
    _LOG_LEVEL = config.log_level()
except config.ConfigError as error:
    raise ImproperlyConfigured(str(error)) from None

if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is false but DJANGO_SECRET_KEY is the development key (it is public): "
        "set DJANGO_SECRET_KEY to a long random secret, or leave it unset for a key of "
        "this machine's own"
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_rq",
    "csp",
    "chanfuzz_site",
    "runners.campaigns",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from the app with debug off; straight from STATICFILES_DIRS
    # (WHITENOISE_USE_FINDERS), so a checkout needs no collectstatic.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After whitenoise (static files are not logged), before the rest (their time counts).
    "chanfuzz_site.request_log.RequestLogMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "chanfuzz_site.toolchain_snapshot.ToolchainSnapshotMiddleware",
    # A view that fails because Redis does not answer (django-rq's dashboard): a 503 page.
    "chanfuzz_site.redis_down.RedisDownMiddleware",
]

ROOT_URLCONF = "chanfuzz_site.urls"

# Every process that loads these settings (gunicorn's workers, RQ workers, commands) logs
# to stderr as runners/logs.py says: JSON objects in production, text in development.
LOGGING = logs.logging_config(_LOG_FORMAT, _LOG_LEVEL)

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
                "chanfuzz_site.context_processors.site_nav",
                "chanfuzz_site.context_processors.targets",
            ],
        },
    },
]

WSGI_APPLICATION = "chanfuzz_site.wsgi.application"
ASGI_APPLICATION = "chanfuzz_site.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        _DATABASE_URL,
        conn_max_age=600,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite creates the file but not its folder; a fresh checkout has no var/ yet.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # Workers (processes of their own) and the web server write to one file:
    # WAL lets readers go on while one writes, IMMEDIATE takes the write lock
    # when a transaction starts (no "database is locked" when a read lock would
    # need upgrading), and the timeout makes writers queue instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
        }
    )

# Campaign chunks run as RQ jobs (runners.campaigns.jobs) on the "default" queue; start
# workers with `python manage.py rqworker default`, on any host that reaches
# this Redis and this database. The chunk job bounds its own run time.
RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 6 * 3600}}
# Reproductions (the playground's runs, a finding's re-runs) on a queue of their own when
# CHANFUZZ_INTERACTIVE_QUEUE names one (compose.yaml: `rqworker interactive` workers).
INTERACTIVE_QUEUE = config.interactive_queue()
if INTERACTIVE_QUEUE != "default":
    RQ_QUEUES[INTERACTIVE_QUEUE] = {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}
# rq's worker plus a sweep that requeues the chunks of dead workers (runners.campaigns.worker).
RQ = {"WORKER_CLASS": "runners.campaigns.worker.ChanfuzzWorker"}

# Rate limits (django-ratelimit) count in Redis, shared by every web process. A Redis
# that does not answer lets requests through (RATELIMIT_FAIL_OPEN): the playground's
# checks are bounded by their own budgets, and its runs need that Redis anyway.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "chanfuzz-ratelimit",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    },
    # Highlighted sources by content hash (chanfuzz_site/highlighting.py): files under the
    # var dir, shared by a host's web workers. Not Redis: the job queue's Redis never
    # evicts (noeviction), and a cache must not be able to fill it. A folder of its own,
    # not under var/cache: Django makes every folder it creates for the cache private
    # (umask 077), and the sandbox's user must read the artifacts in var/cache.
    "highlight": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "highlight-cache"),
        "TIMEOUT": 7 * 24 * 3600,
        # About 6 KB a compressed entry, ten or so a program: some 120 MB at most.
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}
RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_FAIL_OPEN = True  # chanfuzz_site.ratelimits also lets through a Redis that is down
# Behind a proxy the client's address is the last one it put in X-Forwarded-For; a direct
# client could forge that header, so it is read only with DJANGO_TLS_PROXY.
RATELIMIT_IP_META_KEY = "chanfuzz_site.ratelimits.client_ip" if _TLS_PROXY else "REMOTE_ADDR"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign_list"
LOGOUT_REDIRECT_URL = "about"

# Production defaults unless DJANGO_DEBUG or DJANGO_HTTPS=false say otherwise.
SECURE_SSL_REDIRECT = _HTTPS
# Load balancers and compose's health check ask over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = _HTTPS
CSRF_COOKIE_SECURE = _HTTPS
SECURE_HSTS_SECONDS = _HSTS_SECONDS if _HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = bool(SECURE_HSTS_SECONDS)
SECURE_HSTS_PRELOAD = bool(SECURE_HSTS_SECONDS)
if _TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Nothing inline and nothing from elsewhere: scripts and styles are the site's own
# files (htmx is vendored; its inline indicator style is turned off in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns of a missing one
WHITENOISE_USE_FINDERS = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
