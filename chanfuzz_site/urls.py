"""URL routes: the home page and the admin."""

from django.contrib import admin
from django.urls import path

from chanfuzz_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
]
