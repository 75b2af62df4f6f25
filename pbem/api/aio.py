"""Waiting without holding a worker: the async doors of the event streams and of ``?wait=``.

Under ASGI (:mod:`pbem.asgi`) a view that waits must wait on the event loop, not in a
thread: a thread that sleeps is a worker the other requests cannot have. The views stay
DRF views (authentication, scopes, throttles, content negotiation, idempotency, the
schema); :func:`async_door` runs such a view in a thread, as Django runs any sync view,
and whatever the view leaves to wait for it then awaits on the loop:

* an event stream is a ``StreamingHttpResponse`` over an async iterator
  (:func:`pbem.api.streams.arun`);
* a ``?wait=`` answer is a :class:`Deferred`: what to await (the decision), and how to
  make the answer afterwards (in a thread again).

Why the connections are given back after every step: under ASGI a request's sync code runs
in a thread of its own that lives as long as the request, and a stream lives for minutes; a
connection kept by each open stream would exhaust the database (or the pool). So every
database step of a waiting request takes a connection and returns it.

Why one :class:`Ticker` per event loop: every open stream of a process would otherwise
query the database every ``PBEM_API_STREAM_POLL`` seconds; the ticker asks once per
interval for the newest row ids and a stream reads its rows only when they moved.

Under WSGI (the test client, pytest-django's live server, ``manage.py runserver``) the same
views answer synchronously: the streams iterate a sync generator and ``?wait=`` polls in
the request's thread, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

log = logging.getLogger(__name__)

T = TypeVar("T")


def served_async(request: Any) -> bool:
    """Whether this request came through the ASGI handler (a DRF request or Django's own)."""
    return isinstance(getattr(request, "_request", request), ASGIRequest)


def release_connections() -> None:
    """Give this thread's database connections back (to the pool, or closed)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _released(fn: Callable[..., T]) -> Callable[..., T]:
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            release_connections()

    return run


async def db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in this request's thread, its connection given back afterwards."""
    return await sync_to_async(_released(fn))(*args, **kwargs)


class Deferred(HttpResponse):
    """What a sync view hands its async door when the answer waits for something.

    ``awaiting`` is awaited on the event loop; then ``then()`` makes the real answer in a
    thread (the view's own ``finalize_response`` included). Never sent as it is.
    """

    def __init__(self, awaiting: Callable[[], Awaitable[Any]], then: Callable[[], HttpResponseBase]) -> None:
        super().__init__(status=202)
        self.awaiting = awaiting
        self.then = then


def async_door(view: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, HttpResponseBase]]:
    """An async view around a DRF view (``SomeApi.as_view()``); the schema still sees the DRF view."""
    in_thread = sync_to_async(view)

    async def door(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not served_async(request):
            return await in_thread(request, *args, **kwargs)  # WSGI: the view answers in full (never defers)
        # Why the shield: a client that goes away is a cancellation here, but the view may have made a move
        # request already; it runs to its end and its answer is made (an Idempotency-Key keeps it), as
        # under WSGI, where nothing stops a view whose client is gone.
        view_call = asyncio.ensure_future(in_thread(request, *args, **kwargs))
        try:
            response: HttpResponseBase = await asyncio.shield(view_call)
        except asyncio.CancelledError:
            gone = await view_call
            if isinstance(gone, Deferred):
                await sync_to_async(_released(gone.then))()
            raise
        await sync_to_async(release_connections)()
        if isinstance(response, Deferred):
            answer = sync_to_async(_released(response.then))
            try:
                await response.awaiting()
            except asyncio.CancelledError:
                await answer()  # the client went away while waiting: its answer is still kept
                raise
            except Exception:  # a database hiccup while waiting: answer with what stands (202, say)
                log.warning("waiting for a decision failed; answering what stands", exc_info=True)
            response = await answer()
        return response

    # What Django and drf-spectacular read off a DRF view function.
    for name in ("cls", "initkwargs", "view_class", "view_initkwargs", "csrf_exempt"):
        if hasattr(view, name):
            setattr(door, name, getattr(view, name))
    door.__name__ = getattr(view, "__name__", "door")
    door.__doc__ = view.__doc__
    return door


# ---- ?wait= -------------------------------------------------------------------------------------


async def until_decided(is_decided: Callable[[], bool], seconds: float, poll: float = 0.05) -> None:
    """Return once ``is_decided()`` (run in a thread, its connection given back) or after ``seconds``."""
    ends = time.monotonic() + max(seconds, 0.0)
    while not await db(is_decided):
        left = ends - time.monotonic()
        if left <= 0:
            return
        await asyncio.sleep(min(poll, left))
        poll = min(poll * 1.5, 0.5)


# ---- the streams' shared poll ---------------------------------------------------------------------


class Ticker:
    """One poll of a cheap watermark per event loop, shared by every open stream of the process.

    ``mark`` is the newest ``watermark()`` seen (None before the first poll); :meth:`wait`
    returns when it changes or after a timeout. It polls only while someone is subscribed.
    """

    def __init__(self, watermark: Callable[[], Any], every: float) -> None:
        self.watermark = watermark
        self.every = every
        self.mark: Any = None
        self._changed = asyncio.Event()
        self._subscribers = 0
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def subscribed(self) -> Iterator[Ticker]:
        self._subscribers += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="pbem-stream-ticker")
        try:
            yield self
        finally:
            self._subscribers -= 1

    async def wait(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), max(timeout, 0.0))

    async def _run(self) -> None:
        # Why not the request's thread: the ticker serves every request; any pool thread will do.
        read = sync_to_async(_released(self.watermark), thread_sensitive=False)
        while self._subscribers > 0:
            try:
                mark = await read()
            except Exception:  # a database hiccup: the streams keep their last mark and wait
                log.warning("stream ticker: could not read the newest rows", exc_info=True)
            else:
                if mark != self.mark:
                    self.mark = mark
                    changed, self._changed = self._changed, asyncio.Event()
                    changed.set()
            await asyncio.sleep(self.every)


_tickers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Ticker] = weakref.WeakKeyDictionary()


def ticker(watermark: Callable[[], Any]) -> Ticker:
    """This event loop's ticker (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _tickers.get(loop)
    if found is None:
        found = _tickers[loop] = Ticker(watermark, float(getattr(settings, "PBEM_API_STREAM_POLL", 0.5)))
    return found
