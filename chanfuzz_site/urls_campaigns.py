"""Routes of the campaign UI: campaigns, findings, program permalinks and reproductions.

A program's permalink is `/p/<id>`, its 12-character content-derived id
(base32: a–z, 2–7); `/p/<id>.<ext>` (each target's extension) is its raw source and
`/p/<id>.zip` its reproducer bundle.
"""

import re

from django.urls import path, re_path

from chanfuzz_site import bug_report_views, reduction_views
from chanfuzz_site import campaign_views as views
from runners.targets import all_targets

PROGRAM_ID = r"(?P<pid>[A-Za-z2-7]{12})"

# Raw sources: /p/<id>.<extension>, one extension per target.
RAW_EXTENSIONS = "|".join(re.escape(t.extension) for t in all_targets())

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign_list"),
    path("campaigns/new", views.campaign_new, name="campaign_new"),
    # Typed by hand with the slash every other page has: the same form, not a 404.
    path("campaigns/new/", views.campaign_new),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/live", views.campaign_live, name="campaign_live"),
    path("campaigns/<int:pk>/<str:action>", views.campaign_action, name="campaign_action"),
    path("findings/", views.finding_list, name="finding_list"),
    path("findings/<int:pk>/", views.finding_detail, name="finding_detail"),
    path("findings/<int:pk>/report.md", bug_report_views.finding_report, name="finding_report"),
    path(
        "findings/<int:pk>/reproduce.sh",
        bug_report_views.finding_reproducer,
        name="finding_reproducer",
    ),
    path("findings/<int:pk>/reduce", reduction_views.finding_reduce, name="finding_reduce"),
    path("reductions/<int:pk>/", reduction_views.reduction_status, name="reduction_status"),
    path("reductions/<int:pk>/cancel", reduction_views.reduction_cancel, name="reduction_cancel"),
    re_path(rf"^p/{PROGRAM_ID}$", views.program_detail, name="program"),
    re_path(rf"^p/{PROGRAM_ID}\.(?P<ext>{RAW_EXTENSIONS})$", views.program_raw, name="program_raw"),
    # One tab of the program page, highlighted, fetched when it is first shown.
    re_path(
        rf"^p/{PROGRAM_ID}/code\.(?P<ext>{RAW_EXTENSIONS})$",
        views.program_code,
        name="program_code",
    ),
    re_path(rf"^p/{PROGRAM_ID}\.zip$", views.program_bundle, name="program_bundle"),
    re_path(rf"^p/{PROGRAM_ID}/reproduce$", views.program_reproduce, name="program_reproduce"),
    path("reproductions/<int:pk>/", views.reproduction_status, name="reproduction_status"),
]
