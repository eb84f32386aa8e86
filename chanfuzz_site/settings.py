"""Django settings for chanfuzz, read from the environment (runners/config.py) with defaults fit
for development.

Variables (see README "Configuration"):
  DJANGO_SECRET_KEY     required when DJANGO_DEBUG is false; a fixed dev key otherwise
  DJANGO_DEBUG          default true, so that a fresh checkout works without any setup
  DJANGO_ALLOWED_HOSTS  comma-separated, default localhost,127.0.0.1,[::1]
  DATABASE_URL          default sqlite:///<CHANFUZZ_VAR_DIR>/db.sqlite3; postgres://… works too
  REDIS_URL             default redis://127.0.0.1:6379/0: the RQ queue campaigns run through
  CHANFUZZ_VAR_DIR      where run-time data lives, default <repo>/var
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from runners import config

BASE_DIR = Path(__file__).resolve().parent.parent
DEV_SECRET_KEY = config.DEV_SECRET_KEY

try:
    DEBUG = config.django_debug()
    SECRET_KEY = config.django_secret_key()
    ALLOWED_HOSTS = config.django_allowed_hosts()
    VAR_DIR = config.var_dir().resolve()
    REDIS_URL = config.redis_url()
    _DATABASE_URL = config.database_url()
except config.ConfigError as error:
    raise ImproperlyConfigured(str(error)) from None

if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is false but DJANGO_SECRET_KEY is unset (or is the development key): "
        "set DJANGO_SECRET_KEY to a long random secret"
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_rq",
    "chanfuzz_site",
    "runners.campaigns",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "chanfuzz_site.urls"

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
# rq's worker plus a sweep that requeues the chunks of dead workers (runners.campaigns.worker).
RQ = {"WORKER_CLASS": "runners.campaigns.worker.ChanfuzzWorker"}

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

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
