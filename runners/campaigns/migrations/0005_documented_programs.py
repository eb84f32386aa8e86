"""Load the programs the README and docs/ link to, so their permalinks resolve on a
fresh database (runners.campaigns.documented)."""

from django.db import migrations


def load_documented(apps, schema_editor):  # noqa: ANN001, ANN201
    from runners import config
    from runners.campaigns.documented import load

    if not config.load_documented():  # the test suite's databases start empty
        return
    load(apps.get_model("runners", "Program"), apps.get_model("runners", "Finding"))


class Migration(migrations.Migration):
    dependencies = [("runners", "0004_reduction")]

    operations = [migrations.RunPython(load_documented, migrations.RunPython.noop)]
