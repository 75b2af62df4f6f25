"""pbem's URLs plus ``/bench/blob/``, the yardstick of bench/api.py: a DRF view that reads one
10 KB JSONB value from PostgreSQL and returns it (DRF and the database, no pbem code)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem import urls as pbem_urls


class BlobApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("SELECT data FROM bench_blob WHERE id = 1")
            row = cursor.fetchone()
        data: Any = row[0] if row else None
        return Response(data)


urlpatterns = [path("bench/blob/", BlobApi.as_view()), *pbem_urls.urlpatterns]
handler404 = pbem_urls.handler404
handler500 = pbem_urls.handler500
