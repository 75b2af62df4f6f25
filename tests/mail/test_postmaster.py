"""Mail for postmaster, over the real SMTP socket: accepted with or without a domain, read by the operator."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from pbem.games.models import InboundMessage
from tests.mail.conftest import Persona, SmtpServer, sent_messages, text_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("rcpt", ["postmaster", "Postmaster", "POSTMASTER@pbem.localhost"])
def test_it_accepts_postmaster_with_or_without_a_domain(rcpt: str, ana: Persona, smtp_server: SmtpServer) -> None:
    # RFC 5321 4.5.1: RCPT TO:<Postmaster> without a domain must be accepted.
    with smtp_server.session() as s:
        s.ehlo()
        s.mail(ana.email)
        code, _ = s.rcpt(rcpt)
        assert code == 250
        s.data(ana.compose(rcpt, "hello postmaster"))
    assert InboundMessage.objects.get().status == InboundMessage.Status.IGNORED


def test_it_still_refuses_another_bare_local_part(ana: Persona, smtp_server: SmtpServer) -> None:
    with smtp_server.session() as s:
        s.ehlo()
        s.mail(ana.email)
        assert s.rcpt("pbem")[0] == 550


def test_it_forwards_postmaster_mail_to_the_superusers(ana: Persona, smtp_server: SmtpServer) -> None:
    get_user_model().objects.create_superuser("root", "Root@Operator.example", "pw-for-tests")
    get_user_model().objects.create_superuser("ghost", "", "pw-for-tests")
    ana.send_to("postmaster", "Your server sends me too much mail.", subject="complaint")
    row = InboundMessage.objects.get()
    assert row.result == "for the postmaster: forwarded to 1 operator address(es)"
    out = sent_messages()
    assert [str(m["To"]) for m in out] == ["root@operator.example"], "the writer gets no answer"
    assert str(out[0]["Reply-To"]) == ana.email
    assert "complaint" in str(out[0]["Subject"])
    body = text_of(out[0])
    assert "Your server sends me too much mail." in body
    assert f"inbound message #{row.pk}" in body


def test_it_forwards_to_the_configured_operator_even_a_bounce(settings: Any, ana: Persona,
                                                              smtp_server: SmtpServer) -> None:
    settings.PBEM_POSTMASTER_EMAIL = ["ops@operator.example", "night@operator.example"]
    raw = ana.compose("postmaster@pbem.localhost", "Delivery failed for seat-XYZ",
                      headers={"Auto-Submitted": "auto-replied"})
    smtp_server.send("", ["postmaster@pbem.localhost"], raw)
    assert sorted(str(m["To"]) for m in sent_messages()) == ["night@operator.example", "ops@operator.example"]


def test_it_keeps_postmaster_mail_in_the_admin_when_there_is_no_operator(ana: Persona) -> None:
    ana.send_to("postmaster@pbem.localhost", "anyone there?")
    assert InboundMessage.objects.get().result.endswith("(no operator address)")
    assert sent_messages() == []
