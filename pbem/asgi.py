"""The ASGI entry point: what the web service runs (gunicorn with uvicorn workers, or uvicorn).

Why ASGI: the event streams and a move's ``?wait=`` spend their time waiting, and under
ASGI they wait on the event loop (see :mod:`pbem.api.aio`) instead of holding a worker.
Every other view is a sync DRF view that Django runs in a thread of its own per request.

Why no persistent connections here: Django's persistent connections belong to a thread,
and under ASGI each request's sync code runs in a thread made for it, so a kept connection
would be orphaned when the thread ends (Django's docs say to use a pool instead). On
PostgreSQL the process shares a psycopg pool (``PBEM_DB_POOL``, on by default here).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
os.environ.setdefault("PBEM_ASGI", "1")

from django.core.asgi import get_asgi_application  # after the environment above

application = get_asgi_application()
