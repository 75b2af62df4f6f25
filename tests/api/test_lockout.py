"""One lockout per account and per client address for every door that takes a password
(pbem/tokens/lockout.py): the API's token door, the browsable API's log-in page and the admin's,
over a real threaded server on PostgreSQL with the counters in Redis, under parallel requests."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from pbem.games import services
from tests.factories import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

TOKEN = "/api/v1/auth/token/"
LOGIN = "/api/v1/auth/login/"
PASSWORD = "correct horse battery"


def _post_json(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any]]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def _forget_rate_throttle() -> None:
    """DRF's own 30/min throttle of the token door also answers 429; the lockout is what is tested."""
    cache.delete("throttle_auth_127.0.0.1")


def test_it_locks_the_token_door_under_40_parallel_wrong_passwords(live_server, transactional_db):
    alice = make_player("alice@example.org", "Alice")
    services.do_set_password(alice, PASSWORD)
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda i: _post_json(live_server.url, TOKEN,
                                                     {"email": "alice@example.org", "password": f"wrong {i}"}),
                                range(40)))
    codes = sorted(a[0] for a in answers)
    assert codes.count(401) <= 10 and codes.count(401) + codes.count(429) == 40, codes
    locked = [a for a in answers if a[0] == 429 and a[2]["message"].startswith("too many failed log-ins")]
    assert locked and all(0 < int(a[1]["Retry-After"]) <= 900 for a in locked)

    _forget_rate_throttle()
    status, headers, body = _post_json(live_server.url, TOKEN, {"email": "Alice@Example.org", "password": PASSWORD})
    assert status == 429 and body["code"] == "throttled" and "token" not in body
    assert 0 < int(headers["Retry-After"]) <= 900

    # the same account's lock holds at the other doors
    r = Client().post(LOGIN, {"username": alice.user.username, "password": PASSWORD})
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 900


def test_it_shares_the_lock_between_the_login_page_the_admin_and_the_token_door(live_server, transactional_db):
    mod = make_player("mod@example.org", "Mod")
    mod.user.is_staff = True
    mod.user.save(update_fields=["is_staff"])
    services.do_set_password(mod, PASSWORD)
    for i in range(5):
        assert Client().post(LOGIN, {"username": mod.user.username, "password": f"no {i}"}).status_code == 200
    for i in range(5):
        r = Client().post("/admin/login/", {"username": mod.user.username, "password": f"nope {i}"})
        assert r.status_code == 200
    r = Client().post("/admin/login/", {"username": mod.user.username, "password": PASSWORD})
    assert r.status_code == 429 and r.json()["code"] == "throttled"
    status, headers, _ = _post_json(live_server.url, TOKEN, {"email": "mod@example.org", "password": PASSWORD})
    assert status == 429 and int(headers["Retry-After"]) > 0


def test_it_locks_one_address_trying_many_accounts_and_not_another(transactional_db, settings):
    settings.PBEM_LOGIN_ADDRESS_FAILURES = 6
    bob = make_player("bob@example.org", "Bob")
    services.do_set_password(bob, PASSWORD)
    for i in range(6):
        r = Client().post(LOGIN, {"username": f"someone{i}@example.org", "password": "guess"},
                          REMOTE_ADDR="10.1.1.1")
        assert r.status_code == 200
    r = Client().post(LOGIN, {"username": bob.user.username, "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    r = Client().post(LOGIN, {"username": bob.user.username, "password": PASSWORD}, REMOTE_ADDR="10.2.2.2")
    assert r.status_code == 302


def test_it_gives_a_right_password_its_attempt_back_and_counts_unknown_addresses(transactional_db, settings):
    settings.PBEM_LOGIN_FAILURES = 3
    carol = make_player("carol@example.org", "Carol")
    services.do_set_password(carol, PASSWORD)
    client = Client()
    for _ in range(10):  # right passwords never lock an account
        assert client.post(TOKEN, {"email": "carol@example.org", "password": PASSWORD},
                           content_type="application/json", REMOTE_ADDR=f"10.3.0.{_}").status_code == 200
    codes = [client.post(TOKEN, {"email": "nobody@example.org", "password": "x"}, content_type="application/json",
                         REMOTE_ADDR=f"10.4.0.{i}").status_code for i in range(4)]
    assert codes == [401, 401, 401, 429]


def test_it_tells_clients_apart_behind_a_proxy_and_trusts_no_address_they_write(transactional_db, settings):
    settings.PBEM_LOGIN_ADDRESS_FAILURES = 3
    settings.PBEM_PROXY_COUNT = 1
    dave = make_player("dave@example.org", "Dave")
    services.do_set_password(dave, PASSWORD)
    proxy = {"REMOTE_ADDR": "10.9.9.9"}
    for i in range(3):  # one client behind the proxy; what it writes itself at the left changes nothing
        r = Client().post(LOGIN, {"username": f"x{i}@example.org", "password": "guess"}, **proxy,
                          HTTP_X_FORWARDED_FOR=f"1.1.1.{i}, 203.0.113.7")
        assert r.status_code == 200
    r = Client().post(LOGIN, {"username": dave.user.username, "password": PASSWORD}, **proxy,
                      HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert r.status_code == 429
    r = Client().post(LOGIN, {"username": dave.user.username, "password": PASSWORD}, **proxy,
                      HTTP_X_FORWARDED_FOR="198.51.100.4")  # another client behind the same proxy
    assert r.status_code == 302
