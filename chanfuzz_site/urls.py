"""URL routes: the home page, the admin and django-rq's queue dashboard."""

from django.contrib import admin
from django.urls import include, path

from chanfuzz_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
]
