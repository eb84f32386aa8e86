"""URL routes: the about page, reports, accounts, the admin and django-rq's queue dashboard."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from chanfuzz_site import accounts, report_views, views

urlpatterns = [
    # Pages of the campaign UI and of the playground are included here, one line each.
    path("", include("chanfuzz_site.urls_campaigns")),
    path("", include("chanfuzz_site.urls_playground")),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("reports/<slug:name>/", report_views.report, name="report"),
    path("reports/<slug:name>/<path:path>", report_views.report_file, name="report_file"),
    path("accounts/signup/", accounts.signup, name="signup"),
    # Django's auth URLs but the password reset: it mails a link, and no mail is set up
    # (it answered "we've emailed you" and logged the failure).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
]
