"""The campaign archive's versions, and the upgrades that bring an older archive to this engine's.

A campaign lasts longer than a game: an archive exported a year ago (or written by an older release
of the service) must still continue. So the archive says its version (``"version": N``) and an
older one is upgraded when it is checked, imported or continued (:func:`upgrade_archive`), as the
state's formats are (``upgrade.py``): a chain of small steps, ``STEPS[n - 1]`` taking version ``n``
to ``n + 1``, each never edited once released; a later change is a new step at the end.

A step changes the form, never the story: the upgraded archive continues exactly as the old one
would have (tests/engine/test_maracaibo_campaign.py continues a real version-1 archive, written by
the engine of its day, tests/engine/golden/maracaibo_archive_v1_3p.json).

This module imports nothing of the rules, so an archive can be upgraded without them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

Archive = dict[str, Any]

#: the version of the archive this engine writes (and the newest it reads)
ARCHIVE_VERSION = 2


def _version_1_to_2(a: Archive) -> None:
    """Version 2: the story says which book it tells (``story.book``: every version-1 archive is the
    base game's story) and the expansion's modules it has added (``story.modules``: none then)."""
    story = a["story"] if isinstance(a.get("story"), dict) else None
    if story is not None:
        a["story"] = {"book": "base", "modules": [], **story}
    a["version"] = 2


#: STEPS[n - 1] takes an archive of version n to version n + 1
STEPS: list[Callable[[Archive], None]] = [_version_1_to_2]


def upgrade_archive(archive: Mapping[str, Any]) -> Archive:
    """A copy of ``archive`` at :data:`ARCHIVE_VERSION` (the same archive copied when it is already
    there). A newer version, or no version at all, is left as it is: the checks refuse it by name."""
    a: Archive = copy.deepcopy(dict(archive))
    version = a.get("version")
    if type(version) is not int or not 1 <= version < ARCHIVE_VERSION:
        return a
    for step in STEPS[version - 1:]:
        step(a)
    return a
