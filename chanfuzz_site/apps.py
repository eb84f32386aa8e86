"""App config: the project package is an app of its own so it can carry management commands."""

from django.apps import AppConfig


class ChanfuzzSiteConfig(AppConfig):
    name = "chanfuzz_site"
    verbose_name = "chanfuzz"
