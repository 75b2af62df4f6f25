from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "pbem.games"
    label = "games"
    verbose_name = _("Games")  # (the admin's words in the staff's language: issue 27)
    default_auto_field = "django.db.models.BigAutoField"
