"""The browsable API's log-in and log-out pages (``rest_framework.urls``, behind the lockout).

Why not DRF's own module: after a success it redirects to Django's ``/accounts/profile/``,
which this site does not have (``LOGIN_REDIRECT_URL`` in the settings points at
``/api/v1/me/`` instead). Wrong passwords are counted by the authentication backend that
every password door shares (``pbem.tokens.lockout``): past the limit the page answers 429.
"""

from __future__ import annotations

from django.contrib.auth import views
from django.urls import path

app_name = "rest_framework"


class LoginView(views.LoginView):
    template_name = "rest_framework/login.html"


urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
]
