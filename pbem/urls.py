from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
]

try:  # the API app is added by its own module
    urlpatterns.append(path("api/", include("pbem.api.urls")))
except ImportError:  # pragma: no cover
    pass
