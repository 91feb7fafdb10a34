"""A real SMTP server for tests (aiosmtpd): messages delivered to it are parsed and kept in memory."""

from __future__ import annotations

import socket
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class _Collector:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []  # the envelope (RCPT TO) of each message, which headers cannot show
        self.refusal: str | None = None  # e.g. "451 Try again later": the server answers, then refuses the message
        self.refused_to: set[str] | None = None  # only these recipients' messages (None: every message)
        self.sessions = 0  # SMTP sessions opened (each client greets once per connection)

    async def handle_EHLO(  # noqa: N802 (aiosmtpd's hook name)
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's hook name)
        if self.refusal and (self.refused_to is None or set(envelope.rcpt_tos) & self.refused_to):
            return self.refusal
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


class SmtpSink:
    def __init__(self) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        self._collector = _Collector()
        self._controller = Controller(self._collector, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[EmailMessage]:
        return self._collector.messages

    @property
    def recipients(self) -> list[list[str]]:
        return self._collector.recipients

    @property
    def sessions(self) -> int:
        return self._collector.sessions

    def refuse(self, reply: str | None, *, to: set[str] | None = None) -> None:
        """Answer every message (or those to these recipients) with this SMTP reply (None: accept again)."""
        self._collector.refusal = reply
        self._collector.refused_to = to

    def start(self) -> SmtpSink:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()
