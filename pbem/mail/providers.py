"""Mail providers through django-anymail: the doors of their webhooks (thin, one service call).

* Inbound (Mailgun, Postmark, SendGrid, Amazon SES): the provider POSTs a received mail to
  ``/anymail/<provider>/inbound/``; anymail checks the request and turns it into a MIME message,
  which goes to :func:`pbem.mail.services.do_receive_mail` exactly as the SMTP ingress hands it
  on (stored raw, deduplicated by Message-ID, judged by a worker). Only our recipients are kept,
  as the ingress does at RCPT.
* Tracking (``/anymail/<provider>/tracking/``): bounces, rejections and complaints count against
  the recipient's address (:func:`pbem.mail.bounces.do_record_bounce`).

Verification: every route needs HTTP basic auth (``ANYMAIL_WEBHOOK_SECRET``, "user:password",
the same in the provider's webhook URL); without it the routes answer 404. On top, the
provider's signature where it has one: Mailgun's HMAC (``ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY``,
checked by anymail), SendGrid's signed event webhook (``ANYMAIL_SENDGRID_TRACKING_WEBHOOK_VERIFICATION_KEY``,
checked by anymail), Amazon SNS's message signature (checked here: anymail does not yet).
Postmark signs nothing; basic auth is what it offers.
"""

from __future__ import annotations

import base64
import functools
import logging
import re
import urllib.parse
import urllib.request
from collections.abc import Callable
from email.utils import getaddresses
from typing import Any

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import AnymailInboundEvent, AnymailTrackingEvent, EventType, inbound, tracking
from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView, AmazonSESTrackingWebhookView
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern

from pbem.mail import bounces, dsn, parsing, services

log = logging.getLogger(__name__)

#: Tracking events that count as a bounce, and how. A complaint ("this is spam") stops mail as
#: surely as a dead mailbox; ``deferred`` (a provider still retrying) counts nothing, as a
#: DSN's ``delayed`` does.
EVENT_KIND = {EventType.BOUNCED: dsn.HARD, EventType.REJECTED: dsn.HARD, EventType.COMPLAINED: dsn.HARD,
              EventType.FAILED: dsn.SOFT}


def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else \
        [a for _n, a in getaddresses([str(message.get("To", "")), str(message.get("Cc", ""))])]
    ours = [r for r in recipients if r and services.check_recipient(r)]
    if not ours:
        log.info("inbound from %s: no recipient of ours; dropped", esp_name)
        return
    mail_from = message.envelope_sender or parsing.address_of(str(message.get("From", "")))
    services.do_receive_mail(message.as_bytes(), mail_from or "", ours)


def on_tracking(sender: Any, event: AnymailTrackingEvent, esp_name: str, **kwargs: Any) -> None:
    kind = EVENT_KIND.get(event.event_type)
    if kind is None or not event.recipient:
        return
    why = event.description or event.mta_response or event.reject_reason or ""
    detail = " ".join(f"{esp_name} {event.event_type}: {why}".split())
    bounces.do_record_bounce(event.recipient, kind, detail)


# ---- Amazon SNS signatures ----------------------------------------------------------------------

_SNS_FIELDS = {
    "Notification": ("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"),
    "SubscriptionConfirmation": ("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"),
    "UnsubscribeConfirmation": ("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"),
}
CERT_CACHE_SECONDS = 24 * 3600


def sns_string_to_sign(message: dict[str, Any]) -> bytes:
    """What SNS signs: the listed fields present, each as its name and value on lines of their own."""
    fields = _SNS_FIELDS.get(str(message.get("Type")), ())
    return "".join(f"{k}\n{message[k]}\n" for k in fields if k in message).encode()


def _certificate(url: str) -> bytes:
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme != "https" or not re.match(settings.PBEM_SNS_CERT_HOST, parsed.hostname or "") \
            or not parsed.path.endswith(".pem"):
        raise AnymailWebhookValidationFailure("SNS SigningCertURL is not Amazon's")
    key = f"pbem:sns-cert:{url}"
    pem = cache.get(key)
    if pem is None:
        with urllib.request.urlopen(url, timeout=5) as answer:
            pem = answer.read(100_000)
        cache.set(key, pem, timeout=CERT_CACHE_SECONDS)
    return bytes(pem)


def check_sns_signature(message: dict[str, Any]) -> None:
    """Raises AnymailWebhookValidationFailure unless Amazon SNS signed ``message``."""
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    version = str(message.get("SignatureVersion", ""))
    algorithm: hashes.HashAlgorithm = hashes.SHA1() if version == "1" else hashes.SHA256()
    if version not in ("1", "2"):
        raise AnymailWebhookValidationFailure("SNS message without a known SignatureVersion")
    try:
        signature = base64.b64decode(str(message.get("Signature", "")), validate=True)
        cert = x509.load_pem_x509_certificate(_certificate(str(message.get("SigningCertURL", ""))))
        key = cert.public_key()
        if not isinstance(key, rsa.RSAPublicKey):
            raise AnymailWebhookValidationFailure("SNS signing certificate is not RSA")
        key.verify(signature, sns_string_to_sign(message), padding.PKCS1v15(), algorithm)
    except (InvalidSignature, ValueError, OSError) as exc:
        raise AnymailWebhookValidationFailure(f"SNS signature does not hold ({type(exc).__name__})") from None


class _SNSSigned:
    def validate_request(self, request: HttpRequest) -> None:
        super().validate_request(request)  # type: ignore[misc]  # anymail's checks first
        check_sns_signature(self._parse_sns_message(request))  # type: ignore[attr-defined]


class SESInboundView(_SNSSigned, AmazonSESInboundWebhookView):
    pass


class SESTrackingView(_SNSSigned, AmazonSESTrackingWebhookView):
    pass


# ---- routes -------------------------------------------------------------------------------------


def _guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
            raise Http404("provider webhooks are off (no ANYMAIL_WEBHOOK_SECRET)")
        return view(request, *args, **kwargs)

    return guarded


def urlpatterns() -> list[URLPattern]:
    """anymail's webhook routes (mounted under ``anymail/``), Amazon's with SNS signatures checked,
    every one answering 404 until basic auth is configured."""
    from anymail.urls import urlpatterns as anymail_routes

    ours = {"amazon_ses_inbound_webhook": SESInboundView.as_view(),
            "amazon_ses_tracking_webhook": SESTrackingView.as_view()}
    routes = []
    for route in anymail_routes:
        if not isinstance(route, URLPattern):
            continue
        view = ours.get(route.name or "", route.callback)
        routes.append(URLPattern(route.pattern, _guarded(view), route.default_args, route.name))
    return routes


def connect() -> None:
    inbound.connect(on_inbound, dispatch_uid="pbem.mail.providers.inbound")
    tracking.connect(on_tracking, dispatch_uid="pbem.mail.providers.tracking")
