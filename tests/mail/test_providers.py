"""Mail providers through django-anymail: each inbound webhook, fed the provider's documented
payload shape, is verified (basic auth and the provider's signature) and lands in the same
``do_receive_mail`` path as the SMTP ingress (the mail is stored and judged: the move applies);
tracking events count as bounces; outbound goes through a provider's HTTP API."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID
from django.core.cache import cache
from django.test import Client

from pbem.games.models import Game, InboundMessage, MailAddress, OutboundMessage
from pbem.mail import dsn, outbox, providers
from tests.mail.conftest import Persona, seat_of

pytestmark = pytest.mark.django_db(transaction=True)

AUTH = "hook:s3cret-pass"
SIGNING_KEY = "key-mailgun-signing"


@pytest.fixture(autouse=True)
def _providers(settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": AUTH, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def _client(auth: str | None = AUTH) -> Client:
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(auth.encode()).decode()} if auth else {}
    return Client(**headers)


def _move_mail(game: Game, person: Persona) -> tuple[bytes, str, str]:
    """Ana's move as raw MIME, her seat address, her card."""
    game.refresh_from_db()
    seat = seat_of(game, person)
    assert game.state is not None
    card = game.state["hands"][seat.index][0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"Ana <{person.email}>", outbox.reply_address(seat), "Re: moves"
    msg["Message-ID"] = make_msgid(domain="client.example")
    msg.set_content(f"c{card}\n")
    return msg.as_bytes(), outbox.reply_address(seat), f"c{card}"


def _judged(game: Game) -> InboundMessage:
    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.APPLIED, row.result
    assert Game.objects.get(pk=game.pk).version > game.version
    return row


# ---- inbound ------------------------------------------------------------------------------------


def _mailgun_form(raw: bytes, to: str, sender: str, *, key: str = SIGNING_KEY) -> dict[str, str]:
    # Mailgun's "forward" route to .../inbound_mime/ (the whole MIME in body-mime), signed as
    # its docs say: HMAC-SHA256 of timestamp + token with the webhook signing key.
    timestamp, token = str(int(time.time())), "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0"
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {"recipient": to, "sender": sender, "from": sender, "subject": "Re: moves", "body-mime": raw.decode(),
            "timestamp": timestamp, "token": token, "signature": signature}


def test_it_takes_a_mailgun_inbound_mail_signed_and_judges_it(bids_game: Game, ana: Persona) -> None:
    raw, to, _ = _move_mail(bids_game, ana)
    r = _client().post("/anymail/mailgun/inbound_mime/", _mailgun_form(raw, to, ana.email))
    assert r.status_code == 200, r.content
    row = _judged(bids_game)
    assert row.mail_from == ana.email and row.rcpt_to == to


def test_it_refuses_a_mailgun_post_with_a_wrong_signature_or_no_auth(bids_game: Game, ana: Persona) -> None:
    raw, to, _ = _move_mail(bids_game, ana)
    assert _client().post("/anymail/mailgun/inbound_mime/",
                          _mailgun_form(raw, to, ana.email, key="forged")).status_code == 400
    assert _client(None).post("/anymail/mailgun/inbound_mime/", _mailgun_form(raw, to, ana.email)).status_code == 400
    assert _client("hook:wrong").post("/anymail/mailgun/inbound_mime/",
                                      _mailgun_form(raw, to, ana.email)).status_code == 400
    assert not InboundMessage.objects.exists()


def test_it_answers_404_while_no_webhook_secret_is_set(settings: Any, bids_game: Game, ana: Persona) -> None:
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    raw, to, _ = _move_mail(bids_game, ana)
    assert _client().post("/anymail/mailgun/inbound_mime/", _mailgun_form(raw, to, ana.email)).status_code == 404


def test_it_takes_a_postmark_inbound_mail(bids_game: Game, ana: Persona) -> None:
    raw, to, line = _move_mail(bids_game, ana)
    # The shape of Postmark's inbound webhook example, with "Include raw email content" on.
    payload = {
        "FromName": "Ana", "From": ana.email, "FromFull": {"Email": ana.email, "Name": "Ana", "MailboxHash": ""},
        "To": to, "ToFull": [{"Email": to, "Name": "", "MailboxHash": ""}], "Cc": "", "CcFull": [],
        "OriginalRecipient": to, "Subject": "Re: moves", "MessageID": "73e6d360-66eb-11e1-8e72-a8904824019b",
        "ReplyTo": "", "MailboxHash": "", "Date": "Fri, 1 Aug 2014 16:45:32 -04:00", "TextBody": line,
        "HtmlBody": "", "StrippedTextReply": "", "Tag": "",
        "Headers": [{"Name": "Return-Path", "Value": f"<{ana.email}>"},
                    {"Name": "X-Spam-Status", "Value": "No"}],
        "Attachments": [], "RawEmail": raw.decode(),
    }
    r = _client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json")
    assert r.status_code == 200, r.content
    assert _judged(bids_game).mail_from == ana.email


def test_it_takes_a_sendgrid_inbound_parse_mail_with_the_raw_mime(bids_game: Game, ana: Persona) -> None:
    raw, to, _ = _move_mail(bids_game, ana)
    # Inbound Parse with "POST the raw, full MIME message": the mail in "email", the envelope as JSON.
    form = {"email": raw.decode(), "envelope": json.dumps({"to": [to], "from": ana.email}),
            "charsets": json.dumps({"to": "UTF-8", "from": "UTF-8", "subject": "UTF-8"}),
            "SPF": "pass", "dkim": "{@example.org : pass}", "sender_ip": "192.0.2.10"}
    with pytest.warns(Warning):  # anymail warns it no longer supports SendGrid officially
        r = _client().post("/anymail/sendgrid/inbound/", form)
    assert r.status_code == 200, r.content
    assert _judged(bids_game).rcpt_to == to


# ---- Amazon SES through SNS: signed messages ----------------------------------------------------

CERT_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-test.pem"


@pytest.fixture
def sns_key() -> Iterator[rsa.RSAPrivateKey]:
    """A signing key and its certificate, as if fetched from Amazon (the cached copy is what is read)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sns.amazonaws.com")])
    now = datetime.now(UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - timedelta(days=1))
            .not_valid_after(now + timedelta(days=1)).sign(key, hashes.SHA256()))
    cache.set(f"pbem:sns-cert:{CERT_URL}", cert.public_bytes(serialization.Encoding.PEM), timeout=600)
    yield key
    cache.delete(f"pbem:sns-cert:{CERT_URL}")


def _sns(key: rsa.RSAPrivateKey, ses_event: dict[str, Any], topic: str = "inbound") -> dict[str, Any]:
    message = {"Type": "Notification", "MessageId": f"{time.time_ns()}-sns", "TopicArn":
               f"arn:aws:sns:us-east-1:123456789012:{topic}", "Subject": "Amazon SES Email Receipt Notification",
               "Message": json.dumps(ses_event), "Timestamp": "2029-03-08T16:09:32.000Z",
               "SignatureVersion": "2", "SigningCertURL": CERT_URL,
               "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe"}
    signature = key.sign(providers.sns_string_to_sign(message), padding.PKCS1v15(), hashes.SHA256())
    message["Signature"] = base64.b64encode(signature).decode()
    return message


def _post_sns(path: str, message: dict[str, Any]) -> Any:
    return _client().post(path, json.dumps(message), content_type="text/plain; charset=UTF-8",
                          HTTP_X_AMZ_SNS_MESSAGE_TYPE=message["Type"], HTTP_X_AMZ_SNS_MESSAGE_ID=message["MessageId"])


def test_it_takes_an_amazon_ses_inbound_mail_whose_sns_signature_holds(
        bids_game: Game, ana: Persona, sns_key: rsa.RSAPrivateKey) -> None:
    raw, to, _ = _move_mail(bids_game, ana)
    # SES's receipt notification for an SNS action with BASE64 encoding (the mail in "content").
    event = {"notificationType": "Received",
             "mail": {"timestamp": "2029-03-08T16:09:30.000Z", "source": ana.email, "messageId": "o3vrnil0e2ic",
                      "destination": [to], "headersTruncated": False, "headers": []},
             "receipt": {"timestamp": "2029-03-08T16:09:31.000Z", "processingTimeMillis": 222, "recipients": [to],
                         "spamVerdict": {"status": "PASS"}, "virusVerdict": {"status": "PASS"},
                         "spfVerdict": {"status": "PASS"}, "dkimVerdict": {"status": "PASS"},
                         "action": {"type": "SNS", "topicArn": "arn:aws:sns:us-east-1:123456789012:inbound",
                                    "encoding": "BASE64"}},
             "content": base64.b64encode(raw).decode()}
    forged = _sns(sns_key, event)
    forged["Message"] = forged["Message"].replace(ana.email, "mallory@evil.example")
    assert _post_sns("/anymail/amazon_ses/inbound/", forged).status_code == 400
    assert not InboundMessage.objects.exists()
    r = _post_sns("/anymail/amazon_ses/inbound/", _sns(sns_key, event))
    assert r.status_code == 200, r.content
    assert _judged(bids_game).mail_from == ana.email


def test_it_refuses_an_sns_certificate_from_anywhere_but_amazon(bids_game: Game, sns_key: rsa.RSAPrivateKey) -> None:
    message = _sns(sns_key, {"notificationType": "Bounce"})
    message["SigningCertURL"] = "https://evil.example/SimpleNotificationService.pem"
    assert _post_sns("/anymail/amazon_ses/tracking/", message).status_code == 400


# ---- tracking: bounces and complaints -----------------------------------------------------------


def test_it_counts_an_amazon_ses_permanent_bounce(bids_game: Game, bruno: Persona,
                                                  sns_key: rsa.RSAPrivateKey) -> None:
    event = {"notificationType": "Bounce",
             "bounce": {"bounceType": "Permanent", "bounceSubType": "General",
                        "bouncedRecipients": [{"emailAddress": bruno.email, "action": "failed", "status": "5.1.1",
                                               "diagnosticCode": "smtp; 550 5.1.1 user unknown"}],
                        "timestamp": "2029-03-08T16:09:32.000Z", "feedbackId": "0000013786031775-163e3910"},
             "mail": {"timestamp": "2029-03-08T16:09:30.000Z", "source": "pbem@pbem.localhost",
                      "messageId": "0000013786031775-fea503bc", "destination": [bruno.email]}}
    r = _post_sns("/anymail/amazon_ses/tracking/", _sns(sns_key, event, topic="tracking"))
    assert r.status_code == 200, r.content
    address = MailAddress.objects.get(email=bruno.email)
    assert address.bounce_kind == dsn.HARD and address.bounce_score == pytest.approx(1.0)


def test_it_counts_a_postmark_hard_bounce_and_a_complaint(bids_game: Game, bruno: Persona, carla: Persona) -> None:
    bounce = {"RecordType": "Bounce", "ID": 4323372036854775807, "Type": "HardBounce", "TypeCode": 1,
              "Name": "Hard bounce", "Tag": "", "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
              "ServerID": 23, "Description": "The server was unable to deliver your message (ex: unknown user, "
                                             "mailbox not found).", "Details": "smtp;550 5.1.1 user unknown",
              "Email": bruno.email, "From": "pbem@pbem.localhost", "BouncedAt": "2029-03-08T16:09:32Z",
              "DumpAvailable": True, "Inactive": True, "CanActivate": True, "Subject": "Game mail",
              "MessageStream": "outbound"}
    complaint = {**bounce, "Type": "SpamComplaint", "TypeCode": 512, "Name": "Spam complaint", "Email": carla.email}
    for event in (bounce, complaint):
        r = _client().post("/anymail/postmark/tracking/", json.dumps(event), content_type="application/json")
        assert r.status_code == 200, r.content
    assert MailAddress.objects.get(email=bruno.email).bounce_kind == dsn.HARD
    assert MailAddress.objects.get(email=carla.email).bounce_score == pytest.approx(1.0)


# ---- outbound through a provider's API ----------------------------------------------------------


class _FakePostmarkAPI(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakePostmarkAPI.received.append({"token": self.headers.get("X-Postmark-Server-Token"), "body": body})
        answer = json.dumps({"To": body["To"], "SubmittedAt": "2029-03-08T16:09:32Z",
                             "MessageID": "b7bc2f4a-e38e-4336-af7d-e6c392c2f817", "ErrorCode": 0, "Message": "OK"})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(answer.encode())

    def log_message(self, *args: Any) -> None:
        pass


def test_it_sends_through_a_providers_http_api(settings: Any, bids_game: Game, ana: Persona) -> None:
    server = HTTPServer(("127.0.0.1", 0), _FakePostmarkAPI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
        settings.PBEM_MAIL_PROVIDER = "postmark"
        settings.ANYMAIL = {**settings.ANYMAIL, "POSTMARK_SERVER_TOKEN": "server-token",
                            "POSTMARK_API_URL": f"http://127.0.0.1:{server.server_port}/"}
        _FakePostmarkAPI.received.clear()
        row = outbox.queue_reply(None, "Re: your mail", "through the API", to_email=ana.email)  # sent after commit
        assert OutboundMessage.objects.get(pk=row.pk).status == OutboundMessage.Status.SENT
        (call,) = _FakePostmarkAPI.received
        assert call["token"] == "server-token" and call["body"]["To"] == ana.email
        assert "pbem@pbem.localhost" in call["body"]["From"] and "through the API" in call["body"]["TextBody"]
    finally:
        server.shutdown()
