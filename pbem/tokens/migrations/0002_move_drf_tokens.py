"""DRF's ``authtoken`` keys, kept in plain text, become hashed named tokens with every scope.

Why keep them working: clients hold those keys; they stay valid (listed as "token before
scopes", revocable) and the plain-text rows are deleted.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import migrations


def move_tokens(apps: Any, schema_editor: Any) -> None:
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("tokens", "ApiToken")
    for old in Token.objects.all():
        ApiToken.objects.create(user_id=old.user_id, kind="named", name="token before scopes",
                                prefix=old.key[:12], digest=hashlib.sha256(old.key.encode()).hexdigest(),
                                scopes=["read", "play", "moderate"])
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tokens", "0001_initial"),
        ("authtoken", "0003_tokenproxy"),
    ]

    operations = [migrations.RunPython(move_tokens, migrations.RunPython.noop)]
