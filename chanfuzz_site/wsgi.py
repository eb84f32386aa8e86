"""WSGI entry point (`chanfuzz_site.wsgi:application`) for gunicorn and the like."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")

application = get_wsgi_application()
