"""ASGI entry point (`chanfuzz_site.asgi:application`) for uvicorn/daphne and the like."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")

application = get_asgi_application()
