"""On the embedded default (SQLite), concurrent writers queue instead of losing updates.

SQLite has no row locks: the settings open every transaction IMMEDIATE (the write
lock is taken at BEGIN) with a busy timeout, so simultaneous moves wait their turn.
Without that, two threads read the same state and the second write silently
replaces the first, or one fails with "database is locked".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_it_applies_every_simultaneous_move_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
    env.update(PBEM_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="pbem.settings")
    done = subprocess.run([sys.executable, "-m", "tests.service.sqlite_writers"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["vendor"] == "sqlite"
    assert result["errors"] == []
    # Each of the three face-down plays is its own batch: three versions, three moves, nobody left.
    assert result["versions"] == result["writers"] == result["moves"] == 3
    assert result["still_pending"] != [0, 1, 2]
