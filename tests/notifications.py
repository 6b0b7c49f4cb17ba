"""What the tests of clocks and notifications run beside the servers: an SMTP server that keeps
the e-mails (aiosmtpd), a push service's endpoint that keeps the Web Push messages and decrypts
them with the subscription's keys (as the browser would), and the servers' time, moved on
through the file of $CYCLADES_CLOCK_FILE (server/clocks.py).

    with SmtpSink() as smtp, PushEndpoint() as push:
        clock = ServerTime(tmp_path / "clock")    # env {"CYCLADES_CLOCK_FILE": str(clock.path)}
        clock.move(4 * 86400)                      # four days later, for every server process
"""
from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cyclades.server.testing import free_port


class SmtpSink:
    """An SMTP server (aiosmtpd) that keeps every message it receives."""

    def __init__(self):
        from aiosmtpd.controller import Controller
        self.messages: list = []
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                sink.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
                return "250 OK"
        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)

    def to(self, address: str) -> list:
        return [m for m in self.messages if m["To"] == address]

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()


class PushEndpoint:
    """A push service's endpoint: keeps each message (its headers and encrypted body); the
    subscription's keys (`keys`) decrypt them as the browser would."""

    def __init__(self):
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        raw = self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        b64 = lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")  # noqa: E731
        self.keys = {"p256dh": b64(raw), "auth": b64(self.auth)}
        self.received: list = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                endpoint.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/bob"

    def messages(self) -> list:
        import http_ece
        return [json.loads(http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth,
                                            version="aes128gcm")) for _, body in self.received]

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()      # stops serve_forever; the listening socket stays open until
        self.server.server_close()  # closed here (left to the collector, a ResourceWarning)


class ServerTime:
    """The servers' time: the seconds added to the system's, in the file they read."""

    def __init__(self, path):
        self.path = path
        self.offset = 0.0
        self.move(0)

    def move(self, seconds: float):
        self.offset += seconds
        self.path.write_text(str(self.offset))
