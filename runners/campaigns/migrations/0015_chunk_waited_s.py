"""A chunk's wait at its end for hung programs set aside, apart from its runs: the chunk
sizer counts it as a fixed cost of a chunk (runners.engine.batching), not per program."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("runners", "0014_jvm_hang_signatures"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="waited_s",
            field=models.FloatField(
                blank=True, help_text="of run_s, the wait at its end for hung programs", null=True
            ),
        ),
    ]
