"""App config: `runners` holds campaigns, programs, executions and findings (runners.models)."""

from django.apps import AppConfig


class RunnersConfig(AppConfig):
    name = "runners"
    verbose_name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"
