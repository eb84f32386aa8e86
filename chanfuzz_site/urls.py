"""URL routes: the about page, reports, accounts, the admin and django-rq's queue dashboard."""

from django.contrib import admin
from django.urls import include, path

from chanfuzz_site import accounts, report_views, views

urlpatterns = [
    # Pages of the campaign UI and of the playground are included here, one line each.
    path("", include("chanfuzz_site.urls_campaigns")),
    path("", include("chanfuzz_site.urls_playground")),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    path("reports/<slug:name>/", report_views.report, name="report"),
    path("reports/<slug:name>/<path:path>", report_views.report_file, name="report_file"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
]
