"""App config: campaigns, programs, executions and findings (runners.campaigns.models).

The label stays ``runners``, the app's name before the engine and the Django side
were split: table names, migrations and existing databases carry over unchanged.
"""

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "runners.campaigns"
    label = "runners"
    verbose_name = "campaigns"
    default_auto_field = "django.db.models.BigAutoField"
