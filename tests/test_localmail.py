"""tools/localmail.py, the README's mail client, answers what a player would (found by QA, #22, #27):
a Portuguese mail's options ("As suas opções:") and, for a player in two games, each game's newest
mail, not only the newest mail of all (the other game's was marked read and never answered)."""

from __future__ import annotations

import os
from email.message import EmailMessage
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script


def _localmail() -> ModuleType:
    return load_script("tools/localmail.py", "localmail")


def _drop(box: Path, n: int, seat: str, body: str) -> None:
    m = EmailMessage()
    m["From"], m["To"], m["Reply-To"], m["Subject"] = "pbem@pbem.localhost", "ana@example.com", seat, f"turn {n}"
    m.set_content(body)
    path = box / "new" / f"{n}.mail"
    path.write_bytes(m.as_bytes())
    os.utime(path, (1_000_000 + n, 1_000_000 + n))


def test_it_reads_portuguese_options_and_answers_each_games_newest_mail(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "new").mkdir()
    monkeypatch.setenv("PBEM_MAILDIR", str(tmp_path))
    lm = _localmail()
    _drop(tmp_path, 1, "seat-a@pbem.localhost", "It is your turn.\n\nYour options:\n  a1  sail\n  a2  pass\n")
    _drop(tmp_path, 2, "seat-b@pbem.localhost", "É a sua vez.\n\nAs suas opções:\n  b7  planejar X\n")
    _drop(tmp_path, 3, "seat-a@pbem.localhost", "It is your turn.\n\nYour options:\n  a3  sail\n")
    _drop(tmp_path, 4, "seat-a@pbem.localhost", "Game over.\n")
    _drop(tmp_path, 5, "seat-c@pbem.localhost", "As suas opções:\n  As mesmas da minha última mensagem (p5, p7): "
          "a sua jogada foi aplicada, e escolhe de novo entre as mesmas opções.\n")
    asking = lm.asking_for_a_move("ana@example.com")
    assert [lm.first_option(lm.text_of(m)) for _, m in asking] == ["a1", "b7", "a3", "p5"]
    newest = lm.newest_of_each_game(asking)
    assert sorted(lm.first_option(lm.text_of(m)) for _, m in newest) == ["a3", "b7", "p5"]
    assert [p.name for p in (tmp_path / "cur").iterdir()] == ["1.mail:2,S"], "the overtaken mail is marked read"


def test_it_skips_a_mail_another_run_moved_away_between_listing_and_reading(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (#22): two ``play`` runs sharing the Maildir crashed with FileNotFoundError, one reading a mail
    the other had moved to ``cur``. A dangling link is such a mail on a real file system: listed, gone."""
    (tmp_path / "new").mkdir()
    monkeypatch.setenv("PBEM_MAILDIR", str(tmp_path))
    lm = _localmail()
    _drop(tmp_path, 1, "seat-a@pbem.localhost", "It is your turn.\n\nYour options:\n  a1  sail\n")
    (tmp_path / "new" / "2.mail").symlink_to(tmp_path / "moved-to-cur-by-the-other-run")
    asking = lm.asking_for_a_move("ana@example.com")
    assert [lm.first_option(lm.text_of(m)) for _, m in asking] == ["a1"]
    lm.mark(tmp_path / "new" / "3.mail", "S")  # marked by the other run already: nothing to do
    monkeypatch.setattr(lm, "SETTLE_SECONDS", 0.0)
    lm.settle()
