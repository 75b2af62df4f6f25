"""The browsable API's log-in and log-out pages (``rest_framework.urls``, with a rate limit).

Why not DRF's own module: its ``LoginView`` takes any number of wrong passwords, and
after a success it redirects to Django's ``/accounts/profile/``, which this site does not
have (``LOGIN_REDIRECT_URL`` in the settings points at ``/api/v1/me/`` instead).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path

app_name = "rest_framework"

#: Failed log-ins allowed per client address and per user name in one window.
LOGIN_FAILURES = 10
LOGIN_WINDOW = 15 * 60


def _keys(request: HttpRequest) -> list[str]:
    who = (request.POST.get("username") or "").strip().lower()[:200]
    return [f"pbem:login-fail:ip:{request.META.get('REMOTE_ADDR', '')}", f"pbem:login-fail:user:{who}"]


class ThrottledLoginView(views.LoginView):
    template_name = "rest_framework/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if any((cache.get(key) or 0) >= LOGIN_FAILURES for key in _keys(request)):
            response = JsonResponse({"code": "throttled", "message": "too many failed log-ins; try again later"},
                                    status=429)
            response["Retry-After"] = str(LOGIN_WINDOW)
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        for key in _keys(self.request):
            cache.add(key, 0, LOGIN_WINDOW)
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, LOGIN_WINDOW)
        return super().form_invalid(form)


urlpatterns = [
    path("login/", ThrottledLoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
]
