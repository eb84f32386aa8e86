"""Routes of the playground: the page at `/` and the fragments htmx asks for."""

from django.urls import path

from chanfuzz_site import playground_views as views

urlpatterns = [
    path("", views.playground, name="playground"),
    path("playground/program/", views.program_fragment, name="playground_program"),
    path("playground/share/", views.share, name="playground_share"),
    path("playground/run/", views.run, name="playground_run"),
    path("playground/run/<int:reproduction_id>/", views.run_status, name="playground_run_status"),
]
