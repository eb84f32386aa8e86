"""Template context every page gets: the site's navigation (and whether it takes sign-ups)
and the target languages."""

from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from runners.targets import TargetSpec, all_targets

# (label, URL name); entries whose URL is not routed (yet) are left out.
NAV = [
    ("Playground", "playground"),
    ("Campaigns", "campaign_list"),
    ("Findings", "finding_list"),
    ("About", "about"),
    ("Queues", "rq_home"),
]


def site_nav(request: HttpRequest) -> dict[str, object]:
    routed = []
    for label, name in NAV:
        try:
            reverse(name)
        except NoReverseMatch:
            continue
        routed.append((label, name))
    return {"site_nav": routed, "open_signup": settings.OPEN_SIGNUP}


def targets(request: HttpRequest) -> dict[str, tuple[TargetSpec, ...]]:
    """Every target of the registry, in display order, for pages that name them."""
    return {"targets_registry": all_targets()}
