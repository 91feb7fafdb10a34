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

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's hook name)
        if self.refusal:
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

    def refuse(self, reply: str | None) -> None:
        """Answer every message with this SMTP reply (None: accept again)."""
        self._collector.refusal = reply

    def start(self) -> SmtpSink:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()
