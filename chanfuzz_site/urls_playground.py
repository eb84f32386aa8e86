"""Routes of the playground: the page at `/` and the fragments htmx asks for."""

from django.urls import path

from chanfuzz_site import gocheck_views
from chanfuzz_site import playground_views as views

urlpatterns = [
    path("", views.playground, name="playground"),
    path("playground/program/", views.program_fragment, name="playground_program"),
    path("playground/code/<str:language>/", views.code, name="playground_code"),
    path("playground/share/", views.share, name="playground_share"),
    path("playground/run/", views.run, name="playground_run"),
    path("playground/run/<int:reproduction_id>/", views.run_status, name="playground_run_status"),
    # The "Check Go code" tab.
    path("playground/go/", gocheck_views.go_page, name="playground_go"),
    path("playground/go/check/", gocheck_views.go_check, name="playground_go_check"),
    path("playground/go/share/", gocheck_views.go_share, name="playground_go_share"),
    path("playground/go/<str:sid>/", gocheck_views.go_permalink, name="playground_go_permalink"),
]
