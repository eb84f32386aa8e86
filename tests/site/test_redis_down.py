"""chanfuzz_site/redis_down.py: a page that needs Redis, asked while it does not answer."""

from __future__ import annotations

import pytest
import redis
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings

from chanfuzz_site.redis_down import RedisDownMiddleware
from runners.engine.redis_server import free_port

pytestmark = pytest.mark.django_db


def _nobody_listening() -> dict[str, dict[str, str]]:
    return {"default": {"URL": f"redis://127.0.0.1:{free_port()}/0"}}


@pytest.fixture
def staff_client(client: Client, django_user_model) -> Client:  # noqa: ANN001
    staff = django_user_model.objects.create_user("ops", password="not-a-real-1", is_staff=True)
    client.force_login(staff)
    return client


def test_the_queue_dashboard_is_503_with_the_reason_when_redis_is_down(
    staff_client: Client,
) -> None:
    with override_settings(RQ_QUEUES=_nobody_listening()):
        response = staff_client.get("/django-rq/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    text = response.content.decode()
    assert "The queue does not answer" in text and "scripts/start_services.sh" in text
    assert "Traceback" not in text


def test_a_queue_page_is_503_too(staff_client: Client) -> None:
    with override_settings(RQ_QUEUES=_nobody_listening()):
        response = staff_client.get("/django-rq/queues/0/")
    assert response.status_code == 503


def test_pages_that_need_no_redis_still_answer(staff_client: Client) -> None:
    with override_settings(RQ_QUEUES=_nobody_listening()):
        assert staff_client.get("/campaigns/").status_code == 200
        assert staff_client.get("/findings/").status_code == 200


def test_only_staff_are_told_how_to_start_it(rf: RequestFactory, django_user_model) -> None:  # noqa: ANN001
    try:
        redis.Redis.from_url(_nobody_listening()["default"]["URL"]).ping()
    except redis.exceptions.ConnectionError as exc:
        refused = exc
    request = rf.get("/somewhere/")
    request.user = django_user_model.objects.create_user("ada", password="not-a-real-1")
    middleware = RedisDownMiddleware(lambda r: HttpResponse())
    response = middleware.process_exception(request, refused)
    assert response is not None and response.status_code == 503
    assert "does not answer" in response.content.decode()
    assert "start_services" not in response.content.decode()
    assert middleware.process_exception(request, ValueError("not Redis")) is None
