"""The broker's and the shared cache's Redis replies are parsed by hiredis, in C (issue 28): a task's
three broker round trips and the cache's reads were parsed in pure Python, about a quarter of the
broker work a worker's parent does a task. Dropping the dependency, or a redis-py that stops using
it, fails here."""

from __future__ import annotations

import pytest
from kombu import Connection

pytestmark = pytest.mark.redis


def test_the_broker_and_the_cache_parse_redis_replies_with_hiredis(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        conn = client.connection_pool.get_connection()
        try:
            assert type(conn._parser).__name__ == "_HiredisParser"
        finally:
            client.connection_pool.release(conn)
    finally:
        client.close()
    with Connection(redis_url) as broker:  # kombu's own client, as the workers and the ingress use it
        pool = broker.default_channel.client.connection_pool
        conn = pool.get_connection()
        try:
            assert type(conn._parser).__name__ == "_HiredisParser"
        finally:
            pool.release(conn)
