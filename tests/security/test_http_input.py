"""The JSON API takes JSON only: a JSON content type, a body that parses, however it nests."""
import json

import pytest

from partyhub.rooms.models import Room, Seat
from tests.rooms.helpers import make_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a":' * 100_000, "[" * 5000 + "]" * 5000])
def test_deeply_nested_json_answers_400_not_a_server_error(client, body):
    r = client.post("/api/rooms", data=body, content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    code, _, _ = make_room(0)
    r = client.post(f"/api/rooms/{code}/join", data=body, content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "",
    "application/jsonp", "text/json",
])
def test_a_body_that_is_not_declared_json_answers_415(client, content_type):
    """A plain HTML form (text/plain, urlencoded, multipart) cannot make a room or join one."""
    code, _, _ = make_room(0)
    for url, body in [("/api/rooms", "{}"), (f"/api/rooms/{code}/join", json.dumps({"name": "Form"}))]:
        r = client.generic("POST", url, body, content_type=content_type)
        assert r.status_code == 415 and r.json()["error"]["code"] == "bad_content_type", (url, r.content)
    assert Room.objects.count() == 1 and Seat.objects.count() == 0


def test_the_form_post_of_the_review_is_refused(client):
    """The review's attack: a page elsewhere posts a text/plain form that is valid JSON."""
    r = client.generic("POST", "/api/rooms", '{"language": "en", "x": "="}', content_type="text/plain",
                       HTTP_ORIGIN="http://evil.example")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
    r = client.generic("POST", "/api/rooms", '{"language": "en", "x": "="}', content_type="text/plain")
    assert r.status_code == 415
    assert Room.objects.count() == 0


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON"])
def test_json_with_or_without_a_charset_is_served(client, content_type):
    r = client.generic("POST", "/api/rooms", "{}", content_type=content_type)
    assert r.status_code == 201, r.content
