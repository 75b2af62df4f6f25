"""The documentation's links point inside the repository, at files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "DEVELOPERS.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_links_only_to_files_that_exist_in_the_repository(page: Path) -> None:
    for m in LINK.finditer(page.read_text(encoding="utf-8")):
        target = m.group("target")
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{page.name} links outside the repository: {target}"
        assert resolved.exists(), f"{page.name} links to a missing file: {target}"


def test_it_links_the_architecture_from_the_readme() -> None:
    assert "](docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_cites_no_file_that_is_not_in_the_repository(page: Path) -> None:
    """The rulebooks and research notes lie outside the repository: a page cites them by section."""
    assert not re.search(r"`shared/", page.read_text(encoding="utf-8")), f"{page.name} cites a shared/ file"
