"""Accounts: sign-in and sign-out (Django's auth views), sign-up when the site opens it,
and who may stop or change a piece of work.

Anonymous visitors browse everything and use the playground; starting campaigns,
reproductions and reductions needs an account (the views say so with
`login_required`). Sign-up is off unless CHANFUZZ_OPEN_SIGNUP is true: admins
make accounts (`manage.py createsuperuser`, the admin's Users page).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from chanfuzz_site.ratelimits import limit_anonymous


def may_manage(user: object, work: object) -> bool:
    """Whether `user` may stop or change `work` (a campaign, reproduction, reduction):
    its owner, or staff. Work without an owner (the command line's) is staff's."""
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_staff", False):
        return True
    owner_id = getattr(work, "owner_id", None)
    return owner_id is not None and owner_id == user.pk


def require_manager(user: object, work: object) -> None:
    """PermissionDenied (403) unless `user` may manage `work`."""
    if not may_manage(user, work):
        raise PermissionDenied("only its owner or staff may do that")


@require_http_methods(["GET", "HEAD", "POST"])
@limit_anonymous("sign-ups", "RATELIMIT_RUNS")
def signup(request: HttpRequest) -> HttpResponse:
    """A new account (when the site allows it), signed in at once."""
    if not settings.OPEN_SIGNUP:
        raise Http404("sign-up is closed on this site: ask an admin for an account")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(settings.LOGIN_REDIRECT_URL)
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)
