"""Settings for the site bench/api.py serves under gunicorn: pbem's own, with bench/api_urls.py
as the URLconf (pbem's URLs plus one baseline endpoint), so the API is measured as deployed."""

from __future__ import annotations

from pbem.settings import *  # noqa: F403 - pbem's settings, measured as they are

ROOT_URLCONF = "bench.api_urls"
