"""Executions per verdict kept per campaign target (OutcomeCount), counted once here from
the rows already stored; Execution.save keeps them from then on."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count


def count_existing(apps, schema_editor):  # noqa: ANN001, ARG001
    Execution = apps.get_model("runners", "Execution")
    OutcomeCount = apps.get_model("runners", "OutcomeCount")
    rows = (
        Execution.objects.filter(target__isnull=False)
        .values("target_id", "target__campaign_id", "outcome")
        .annotate(n=Count("*"))
        .order_by()
    )
    OutcomeCount.objects.bulk_create(
        (
            OutcomeCount(
                target_id=row["target_id"],
                campaign_id=row["target__campaign_id"],
                outcome=row["outcome"],
                count=row["n"],
            )
            for row in rows.iterator()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("runners", "0010_schedule_perturbation"),
    ]

    operations = [
        migrations.CreateModel(
            name="OutcomeCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),  # noqa: E501
                (
                    "outcome",
                    models.CharField(
                        choices=[
                            ("terminated", "terminated"),
                            ("timeout", "timeout"),
                            ("crash", "crash"),
                            ("wrong_value", "wrong value"),
                            ("compile_error", "compile error"),
                            ("infra_error", "infra error"),
                            ("skipped", "skipped"),
                        ],
                        max_length=20,
                    ),
                ),
                ("count", models.PositiveBigIntegerField(default=0)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="outcome_counts",
                        to="runners.campaign",
                    ),
                ),
                (
                    "target",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="outcome_counts",
                        to="runners.campaigntarget",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("target", "outcome"), name="outcome_count_unique"
                    )
                ],
            },
        ),
        migrations.RunPython(count_existing, migrations.RunPython.noop),
    ]
