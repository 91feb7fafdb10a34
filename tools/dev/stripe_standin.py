"""A Stripe stand-in: the part of Stripe's HTTP API this site calls, for tests and local runs, spoken as Stripe does.

The real SDK talks to it (STRIPE_API_BASE): form-encoded POST /v1/checkout/sessions (idempotency keys honoured),
GET /v1/checkout/sessions/{id}, POST /v1/refunds; errors in Stripe's `{"error": {...}}` shape. A session's `url` is a
page here with a "Pay" button (and "Pay with a declined card", and "Cancel" back to the cancel URL). Paying sends
`checkout.session.completed` (payment_status "paid", a payment intent id), declining `payment_intent.payment_failed`,
a refund `charge.refunded`, each signed as Stripe signs (`Stripe-Signature: t=<unix time>,v1=<HMAC-SHA256 of
"{t}.{payload}" with the webhook secret>`) and POSTed to the webhook URL; then the payer goes to the success URL.

Every event built is kept (`events`), delivered or not: with no webhook URL, tests deliver them themselves.

    python -m tools.dev.stripe_standin --port 12111 --webhook-url http://127.0.0.1:3000/api/stripe/webhook \\
        --webhook-secret whsec_dev
    # then run the site with STRIPE_SECRET_KEY=sk_test_dev STRIPE_WEBHOOK_SECRET=whsec_dev \\
    #   STRIPE_API_BASE=http://127.0.0.1:12111
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import html
import json
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

API_VERSION = "2025-10-29.clover"


def sign(payload: str, secret: str, timestamp: int | None = None) -> str:
    """The `Stripe-Signature` header Stripe sends with `payload`."""
    t = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={t},v1={digest}"


def form_to_dict(body: str) -> dict[str, Any]:
    """Stripe's form encoding (`a[b][0][c]=v`) as nested dicts and lists, as Stripe reads it."""
    out: dict[str, Any] = {}
    for key, value in parse_qsl(body, keep_blank_values=True):
        parts = key.replace("]", "").split("[")
        node: Any = out
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            nxt: Any = value if last else ([] if parts[i + 1].isdigit() else {})
            if isinstance(node, list):
                index = int(part)
                while len(node) <= index:
                    node.append(None)
                if node[index] is None or last:
                    node[index] = nxt
                node = node[index]
            else:
                if part not in node or last:
                    node[part] = nxt
                node = node[part]
    return out


def _id(prefix: str) -> str:
    return f"{prefix}_test_{secrets.token_hex(12)}"


@dataclass
class StandIn:
    """The server's state: sessions, payment intents, charges, idempotent answers, the events built."""

    webhook_url: str | None = None
    webhook_secret: str = "whsec_standin"
    api_key_prefix: str = "sk_"
    webhook_delay: float = 0.0  # seconds before an event is sent (the payer is redirected meanwhile)
    host: str = "127.0.0.1"
    port: int = 0
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    charges: dict[str, dict[str, Any]] = field(default_factory=dict)  # by payment intent id
    # Prices made in Stripe's dashboard that line items may name by id (`price`): unit_amount, currency, name and,
    # for a recurring one, recurring[interval]. Tests add them; an unknown id is refused as Stripe does.
    prices: dict[str, dict[str, Any]] = field(default_factory=dict)
    subscriptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    deliveries: list[tuple[str, int]] = field(default_factory=list)  # (event id, HTTP status or 0)
    idempotent: dict[tuple[str, str], tuple[int, dict[str, Any]]] = field(default_factory=dict)
    requests: list[tuple[str, str, dict[str, Any], dict[str, str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None
        self.senders: list[threading.Thread] = []

    # --- lifecycle ---------------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://{self.host}:{self.server.server_address[1]}"

    def start(self) -> StandIn:
        standin = self

        class Handler(_Handler):
            state = standin

        self.server = ThreadingHTTPServer((self.host, self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
        self.wait()

    def wait(self, timeout: float = 10) -> None:
        """Until every event queued so far has been sent."""
        for t in list(self.senders):
            t.join(timeout)

    # --- events ------------------------------------------------------------------------------------------------

    def event(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        """Build an event, keep it, and send it to the webhook URL (after `webhook_delay`) if there is one."""
        event = {
            "id": _id("evt"),
            "object": "event",
            "api_version": API_VERSION,
            "created": int(time.time()),
            "livemode": False,
            "pending_webhooks": 1,
            "type": kind,
            "data": {"object": json.loads(json.dumps(obj))},
        }
        self.events.append(event)
        if self.webhook_url:
            sender = threading.Thread(target=self._send, args=(event,), daemon=True)
            self.senders.append(sender)
            sender.start()
        return event

    def signed(self, event: dict[str, Any], *, timestamp: int | None = None) -> tuple[bytes, str]:
        """The body and `Stripe-Signature` header Stripe would send for `event`."""
        payload = json.dumps(event, indent=2)
        return payload.encode(), sign(payload, self.webhook_secret, timestamp)

    def _send(self, event: dict[str, Any]) -> None:
        time.sleep(self.webhook_delay)
        # Stripe retries a failed delivery for days; three tries a second apart are enough here.
        for _attempt in range(3):
            body, signature = self.signed(event)
            request = urllib.request.Request(
                str(self.webhook_url),
                data=body,
                method="POST",
                headers={"Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signature},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:  # nosec B310
                    status = answer.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError:
                status = 0
            self.deliveries.append((event["id"], status))
            if 200 <= status < 300:
                return
            time.sleep(1)

    # --- Stripe's objects --------------------------------------------------------------------------------------

    def _line(self, item: dict[str, Any]) -> dict[str, Any]:
        """A line item as Stripe reads it: a price named by id (`price`), or one given inline (`price_data`, with
        `product_data[name]` or a `product` id, and `recurring[interval]` for a subscription's)."""
        quantity = int(item.get("quantity") or 1)
        if item.get("price"):
            price = self.prices.get(str(item["price"]))
            if price is None:
                raise StripeRefusal(f"No such price: '{item['price']}'", "line_items", code="resource_missing")
            return {**price, "quantity": quantity, "recurring": price.get("recurring")}
        data = item.get("price_data") or {}
        name = (data.get("product_data") or {}).get("name") or data.get("product")
        if not str(data.get("unit_amount", "")).isdigit() or not name:
            raise StripeRefusal(
                "Each line item needs price_data[unit_amount] and product_data[name] (or product).", "line_items"
            )
        interval = (data.get("recurring") or {}).get("interval")
        if interval is not None and interval not in ("day", "week", "month", "year"):
            raise StripeRefusal(f"Invalid recurring[interval]: {interval}", "line_items")
        return {
            "unit_amount": int(data["unit_amount"]),
            "currency": data.get("currency", "usd"),
            "name": str(name),
            "quantity": quantity,
            "recurring": {"interval": interval} if interval else None,
        }

    def create_session(self, params: dict[str, Any]) -> dict[str, Any]:
        items = params.get("line_items") or []
        mode = params.get("mode")
        if mode not in ("payment", "subscription") or not items:
            raise StripeRefusal("This stand-in makes payment- and subscription-mode sessions with line_items.", "mode")
        lines = [self._line(item) for item in items]
        recurring = [line for line in lines if line["recurring"]]
        if mode == "subscription" and len(recurring) != len(lines):
            raise StripeRefusal("In `subscription` mode every line item needs a recurring price.", "line_items")
        if mode == "payment" and recurring:
            raise StripeRefusal("You specified `payment` mode but passed a recurring price.", "line_items")
        total = sum(line["unit_amount"] * line["quantity"] for line in lines)
        for url in ("success_url", "cancel_url"):
            if not str(params.get(url, "")).startswith(("http://", "https://")):
                raise StripeRefusal(f"Not a valid URL: {url}", url)
        sid = _id("cs")
        session = {
            "id": sid,
            "object": "checkout.session",
            "mode": mode,
            "status": "open",
            "payment_status": "unpaid",
            "amount_total": total,
            "amount_subtotal": total,
            "currency": lines[0]["currency"],
            "client_reference_id": params.get("client_reference_id"),
            "customer_email": params.get("customer_email"),
            "metadata": params.get("metadata") or {},
            "payment_intent": None,
            "success_url": params["success_url"],
            "cancel_url": params["cancel_url"],
            "url": f"{self.url}/pay/{sid}",
            "line_items": items,
            "created": int(time.time()),
            "subscription": None,
            "invoice": None,
            "_intent_metadata": (params.get("payment_intent_data") or {}).get("metadata") or {},
            "_subscription_metadata": (params.get("subscription_data") or {}).get("metadata") or {},
            "_lines": lines,
        }
        self.sessions[sid] = session
        return session

    def pay(self, sid: str, *, declined: bool = False) -> dict[str, Any]:
        session = self.sessions[sid]
        if session["status"] != "open":
            return session
        intent = session["payment_intent"] or _id("pi")
        if session["mode"] == "payment":
            session["payment_intent"] = intent
        if declined:
            self.event(
                "payment_intent.payment_failed",
                {
                    "id": intent,
                    "object": "payment_intent",
                    "amount": session["amount_total"],
                    "currency": session["currency"],
                    "status": "requires_payment_method",
                    "metadata": session["_intent_metadata"],
                    "last_payment_error": {"code": "card_declined", "message": "Your card was declined."},
                },
            )
            return session
        session["status"], session["payment_status"] = "complete", "paid"
        if session["mode"] == "subscription":
            return self._subscribe(session)
        self.charges[intent] = {
            "id": _id("ch"),
            "object": "charge",
            "amount": session["amount_total"],
            "amount_refunded": 0,
            "currency": session["currency"],
            "payment_intent": intent,
            "paid": True,
            "refunded": False,
            "status": "succeeded",
            "metadata": session["_intent_metadata"],
        }
        self.event("checkout.session.completed", public(session))
        return session

    def refund(self, params: dict[str, Any]) -> dict[str, Any]:
        charge = self.charges.get(str(params.get("payment_intent") or ""))
        if charge is None:
            raise StripeRefusal("No such payment_intent", "payment_intent", status=404, code="resource_missing")
        left = charge["amount"] - charge["amount_refunded"]
        amount = int(params.get("amount") or left)
        if left <= 0:
            raise StripeRefusal(
                f"Charge {charge['id']} has already been refunded.", None, code="charge_already_refunded"
            )
        if amount > left or amount <= 0:
            raise StripeRefusal(
                f"Refund amount (${amount / 100:.2f}) is greater than unrefunded amount on charge (${left / 100:.2f})",
                "amount",
            )
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] == charge["amount"]
        refund = {
            "id": _id("re"),
            "object": "refund",
            "amount": amount,
            "currency": charge["currency"],
            "charge": charge["id"],
            "payment_intent": charge["payment_intent"],
            "status": "succeeded",
            "created": int(time.time()),
        }
        self.event("charge.refunded", charge)
        return refund

    # --- subscriptions (Stripe's API 2025-03 and later: an invoice names its subscription under `parent`) --------

    def _subscribe(self, session: dict[str, Any]) -> dict[str, Any]:
        """A paid subscription-mode Checkout: the subscription, its first invoice paid, and the two events Stripe
        sends for it (the session's completion and the first invoice's `invoice.paid`)."""
        line = session["_lines"][0]
        sub = {
            "id": _id("sub"),
            "object": "subscription",
            "status": "active",
            "customer_email": session["customer_email"],
            "metadata": session["_subscription_metadata"],
            "currency": session["currency"],
            "amount": session["amount_total"],
            "interval": line["recurring"]["interval"],
            "period_start": int(time.time()),
        }
        self.subscriptions[sub["id"]] = sub
        first = self._invoice(sub, "subscription_create")
        session["subscription"], session["invoice"] = sub["id"], first["id"]
        self.event("checkout.session.completed", public(session))
        self.event("invoice.paid", first)
        return session

    def _invoice(self, sub: dict[str, Any], reason: str, *, paid: bool = True) -> dict[str, Any]:
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[sub["interval"]]
        start = sub["period_start"]
        end = start + days * 86400
        return {
            "id": _id("in"),
            "object": "invoice",
            "billing_reason": reason,
            "status": "paid" if paid else "open",
            "amount_due": sub["amount"],
            "amount_paid": sub["amount"] if paid else 0,
            "currency": sub["currency"],
            "customer_email": sub["customer_email"],
            "parent": {
                "type": "subscription_details",
                "subscription_details": {"subscription": sub["id"], "metadata": sub["metadata"]},
            },
            "lines": {"object": "list", "data": [{"period": {"start": start, "end": end}, "amount": sub["amount"]}]},
        }

    def renew(self, subscription_id: str, *, declined: bool = False) -> dict[str, Any]:
        """The subscription's next period is billed (what Stripe does on its own at each period's end): `invoice.paid`,
        or `invoice.payment_failed` and the subscription past due when the card is declined. The built event."""
        sub = self.subscriptions[subscription_id]
        if sub["status"] == "canceled":
            raise StripeRefusal("This subscription is canceled.", None, code="resource_missing")
        sub["period_start"] += {"day": 1, "week": 7, "month": 30, "year": 365}[sub["interval"]] * 86400
        sub["status"] = "past_due" if declined else "active"
        invoice = self._invoice(sub, "subscription_cycle", paid=not declined)
        return self.event("invoice.payment_failed" if declined else "invoice.paid", invoice)

    def cancel(self, subscription_id: str) -> dict[str, Any]:
        """The subscription ends (cancelled in Stripe, or Stripe gave up on its renewals): the built event."""
        sub = self.subscriptions[subscription_id]
        sub["status"] = "canceled"
        return self.event("customer.subscription.deleted", {k: v for k, v in sub.items() if k != "period_start"})


def public(session: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in session.items() if not k.startswith("_") and k != "line_items"}


class StripeRefusal(Exception):
    def __init__(self, message: str, param: str | None, *, status: int = 400, code: str = "parameter_invalid") -> None:
        super().__init__(message)
        self.status, self.body = (
            status,
            {"error": {"type": "invalid_request_error", "message": message, "param": param, "code": code}},
        )


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay {name} (Stripe stand-in)</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1e293b}}
button{{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#4f46e5;color:#fff;cursor:pointer}}
.decline{{background:#e2e8f0;color:#1e293b}} p.note{{color:#64748b;font-size:.85rem}}</style></head><body>
<p class="note">Stripe stand-in: a test double of Stripe Checkout. No card is charged.</p>
<h1>{name}</h1><p>Amount due: <strong>{amount} {currency}</strong></p>
<form method="post" action="/pay/{sid}"><button type="submit" name="outcome" value="paid">Pay</button>
<button class="decline" type="submit" name="outcome" value="declined">Pay with a declined card</button></form>
<p><a href="{cancel}">Cancel</a></p></body></html>"""


class _Handler(BaseHTTPRequestHandler):
    state: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, body: dict[str, Any]) -> None:
        self._send(status, json.dumps(body).encode(), "application/json")

    def _body(self) -> str:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()

    def _authorized(self) -> bool:
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer " + self.state.api_key_prefix):
            return True
        self._json(401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}})
        return False

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        st = self.state
        if path.startswith("/v1/checkout/sessions/"):
            if not self._authorized():
                return
            session = st.sessions.get(path.rsplit("/", 1)[1])
            if session is None:
                refusal = StripeRefusal("No such checkout.session", "id", status=404, code="resource_missing")
                self._json(refusal.status, refusal.body)
                return
            self._json(200, public(session))
            return
        if path.startswith("/pay/") and (session := st.sessions.get(path.removeprefix("/pay/"))):
            page = PAGE.format(
                name=html.escape(session["_lines"][0]["name"]),
                amount=f"{session['amount_total'] / 100:,.2f}",
                currency=html.escape(session["currency"].upper()),
                sid=session["id"],
                cancel=html.escape(session["cancel_url"]),
            )
            self._send(200, page.encode(), "text/html; charset=utf-8")
            return
        self._json(404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL {path}"}})

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        st = self.state
        body = self._body()
        if path.startswith("/pay/") and path.removeprefix("/pay/") in st.sessions:
            sid = path.removeprefix("/pay/")
            declined = dict(parse_qsl(body)).get("outcome") == "declined"
            with st.lock:
                session = st.pay(sid, declined=declined)
            target = session["cancel_url"] if declined else session["success_url"].replace("{CHECKOUT_SESSION_ID}", sid)
            if declined:
                page = b"<!doctype html><title>Declined</title><p>Your card was declined.</p>"
                self._send(402, page, "text/html; charset=utf-8")
                return
            self._send(303, b"", "text/plain", {"Location": target})
            return
        routes = {"/v1/checkout/sessions": st.create_session, "/v1/refunds": st.refund}
        if path not in routes:
            self._json(404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL {path}"}})
            return
        if not self._authorized():
            return
        params = form_to_dict(body)
        st.requests.append(("POST", path, params, dict(self.headers)))
        key = self.headers.get("Idempotency-Key")
        with st.lock:
            if key and (path, key) in st.idempotent:
                status, answer = st.idempotent[(path, key)]
                self._json(status, answer)
                return
            try:
                status, answer = 200, routes[path](params)
                answer = public(answer)
            except StripeRefusal as exc:
                status, answer = exc.status, exc.body
            if key:
                st.idempotent[(path, key)] = (status, answer)
        self._json(status, answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=12111)
    parser.add_argument("--webhook-url", default="http://127.0.0.1:3000/api/stripe/webhook")
    parser.add_argument("--webhook-secret", default="whsec_dev")
    parser.add_argument("--webhook-delay", type=float, default=1.0)
    args = parser.parse_args()
    standin = StandIn(args.webhook_url, args.webhook_secret, webhook_delay=args.webhook_delay, host=args.host)
    standin.port = args.port
    standin.start()
    sys.stdout.write(f"Stripe stand-in on {standin.url}, events to {args.webhook_url}\n")
    sys.stdout.flush()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        standin.stop()


if __name__ == "__main__":
    main()
