"""The site's routes: admin, the REST API with its schema and docs, and the plain game pages."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from pbem.mail import providers
from pbem.web import views as web_views

urlpatterns = [
    path("healthz", web_views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/v1/auth/", include("pbem.api.auth_urls")),
    path("api/v1/", web_views.api_index, name="api-index"),
    path("api/v1/", include("pbem.api.urls")),
    # Mail providers' inbound and tracking webhooks (django-anymail; 404 until configured).
    path("anymail/", include(providers.urlpatterns())),
    path("", include("pbem.web.urls")),
]

#: JSON answers for unknown URLs and crashes under /api/; HTML pages elsewhere.
handler404 = "pbem.web.views.not_found"
handler500 = "pbem.web.views.server_error"
