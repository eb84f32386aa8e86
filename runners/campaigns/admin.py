"""Admin for campaigns and their records: browsing and fixing by hand, not the main UI.

Execution lists are large, so lists show no output columns and use raw id
widgets for foreign keys (no 100k-row select boxes).
"""

from django.contrib import admin

from runners.campaigns.models import (
    Campaign,
    CampaignTarget,
    Chunk,
    Execution,
    Finding,
    Program,
    Reproduction,
)


class CampaignTargetInline(admin.TabularInline):
    model = CampaignTarget
    extra = 0
    readonly_fields = ["language", "requested_version", "toolchain_id", "toolchain_description"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "status", "heuristic", "program_count", "created_at"]
    list_filter = ["status", "heuristic"]
    search_fields = ["name"]
    date_hierarchy = "created_at"
    inlines = [CampaignTargetInline]


@admin.register(CampaignTarget)
class CampaignTargetAdmin(admin.ModelAdmin):
    list_display = ["id", "campaign", "language", "toolchain_id"]
    list_filter = ["language"]
    raw_id_fields = ["campaign"]


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["id", "target", "start", "end", "state", "attempts", "heartbeat_at"]
    list_filter = ["state"]
    raw_id_fields = ["target"]


@admin.register(Program)
class ProgramAdmin(admin.ModelAdmin):
    list_display = ["id", "source", "seed", "effect_size", "generator_version", "created_at"]
    list_filter = ["source", "generator_version"]
    search_fields = ["id", "effect_text"]


@admin.register(Execution)
class ExecutionAdmin(admin.ModelAdmin):
    list_display = ["id", "campaign", "target", "index", "program", "outcome", "created_at"]
    list_filter = ["outcome"]
    search_fields = ["program__id", "signature"]
    raw_id_fields = ["target", "campaign", "reproduction", "program", "finding"]
    list_select_related = ["campaign", "target"]
    show_full_result_count = False  # COUNT(*) over 100k rows on every page is wasted


@admin.register(Finding)
class FindingAdmin(admin.ModelAdmin):
    list_display = ["id", "outcome", "language", "execution_count", "program_count", "last_seen"]
    list_filter = ["outcome", "language"]
    search_fields = ["signature", "title"]
    raw_id_fields = ["example"]


@admin.register(Reproduction)
class ReproductionAdmin(admin.ModelAdmin):
    list_display = ["id", "program", "toolchain_id", "times", "completed", "crashed", "hung"]
    list_filter = ["status", "language"]
    raw_id_fields = ["program"]
