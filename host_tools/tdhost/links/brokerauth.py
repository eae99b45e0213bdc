"""Who may do what on the embedded broker (amqtt 0.12.1; docs/mqtt.md, "Threats"): the
``Logins`` plugin (user, password, client id = user name), the ACL ``allowed`` (the rules of
docs/mosquitto/acl), and ``Guarded``, amqtt's Broker fixed to check a login before it touches
any session; each refusal is logged once and told to the console's Wi-Fi notes.
"""

import asyncio
import hmac
import logging
from dataclasses import dataclass, field
from typing import Any

from amqtt.contexts import Action
from amqtt.errors import AMQTTError
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.plugins.base import BaseAuthPlugin
from amqtt.plugins.topic_checking import TopicAccessControlListPlugin
from amqtt.utils import format_client_message, gen_client_id

from tdhost.links.brokerlimits import Bounded
from tdhost.safetext import shortened

log = logging.getLogger("tdhost.broker")

HOST_USER = "host"
BOX_WRITE = ("tc/+/box/%u/out", "tc/+/box/%u/status", "tc/+/box/%u/presence")
BOX_READ = ("tc/+/box/%u/in",)
HOST_ALL = ("tc/#",)
REFUSED = "refused-"  # the client id a refused client gets (it touches nobody's session)


def _text(v: Any) -> Any:
    return v.decode("utf-8", "replace") if isinstance(v, (bytes, bytearray)) else v


def refused_as(users: dict[str, str], session: Any) -> tuple[str, str | None, Any] | None:
    """(why, user, client id) when *session*'s CONNECT is refused, else None; *why*:
    ``anonymous``, ``unknown`` (no such user), ``password`` or ``client_id`` (not its
    user name) -- tdhost.links.wifinotes words them for the console."""
    user = _text(session.username)
    if not user:
        return ("anonymous", None, session.client_id)
    want = users.get(user)
    if want is None:
        return ("unknown", user, session.client_id)
    if not hmac.compare_digest(str(_text(session.password) or "").encode(), want.encode()):
        return ("password", user, session.client_id)
    if session.client_id != user:
        return ("client_id", user, session.client_id)
    return None


def refusal(users: dict[str, str], session: Any) -> str | None:
    """Why *session*'s CONNECT is refused (a sentence), or None when it may log in; the
    user name and client id are the network's: shortened (tdhost.safetext)."""
    r = refused_as(users, session)
    if r is None:
        return None
    why, user, cid = r[0], shortened(r[1]), shortened(r[2])
    if why == "anonymous":
        return "a client without a user name (anonymous clients are refused)"
    if why == "unknown":
        return ("user %s, which is no paired box of this event (a box paired before each"
                " box had its own login must be paired again: tdhost pair)" % user)
    if why == "password":
        return "user %s with a wrong password" % user
    return "user %s claiming client id %s (a client's id must be its user name)" % (user, cid)


class Logins(BaseAuthPlugin):
    """User, password and client id (module notes)."""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self.said: set[str] = set()

    async def authenticate(self, *, session: Any) -> bool:
        if session.client_id.startswith(REFUSED):  # refused (and said) already: Guarded
            return False
        why = refusal(self.config.users, session)
        if why is None:
            return True
        if why not in self.said and len(self.said) < 1000:
            self.said.add(why)
            log.warning("The broker refused %s.", why)
        return False

    @dataclass
    class Config:
        users: dict[str, str] = field(default_factory=dict)


def allowed(user: str | None, topic: str | None, action: Action) -> bool:
    """The ACL (module notes): may *user* do *action* (amqtt's Action) on *topic*?"""
    if not user or not topic:
        return False
    patterns: tuple[str, ...]
    if user == HOST_USER:
        patterns = HOST_ALL
    elif action == Action.PUBLISH:
        patterns = BOX_WRITE
    else:  # SUBSCRIBE, and RECEIVE: each message delivered to it (again)
        patterns = BOX_READ
    for pattern in patterns:
        if TopicAccessControlListPlugin.topic_ac(topic, pattern.replace("%u", user)):
            return True
    return False


class Guarded(Bounded):
    """amqtt's Broker (with the limits of tdhost.links.brokerlimits) with the
    authentication before any session is looked up (its ``_initialize_client_session``
    otherwise as in 0.12.1) and the ACL checked in line (module notes)."""

    async def _topic_filtering(self, session: Any, topic: str, action: Action) -> bool:
        # in line, not through amqtt's plugin manager: that spawns a task per check,
        # and the suspension inside _run_broadcast's loop over the subscriptions let
        # connecting boxes change them under it (RuntimeError: the message lost); it
        # also costs ~20x as much (bench/sync_bench.py, docs/mqtt.md "Brokers")
        return allowed(_text(session.username) if session is not None else None, topic,
                       action)

    async def _initialize_client_session(self, reader: Any, writer: Any, remote_address: Any,
                                         remote_port: Any) -> Any:
        try:
            handler, client_session = await BrokerProtocolHandler.init_from_connect(
                reader, writer, self.plugins_manager)
        except AMQTTError as exc:
            self.logger.warning("[MQTT-3.1.0-1] %s: Can't read first packet as CONNECT: %s"
                                % (format_client_message(address=remote_address,
                                                         port=remote_port), exc))
            raise
        if not await self._authenticate(client_session, None):
            self._tell(client_session)
            # refused: a client id of its own, so no session of a box or the host is
            # dropped or taken over; the CONNACK then says "not authorized"
            client_session.client_id = REFUSED + gen_client_id()
            client_session.clean_session = True
        else:  # a session taken over: its connection closes (0.12.1 leaves it open, dead)
            await self._close_old(client_session.client_id)
        if client_session.clean_session:
            if client_session.client_id:
                await self._delete_session(client_session.client_id)
            else:
                client_session.client_id = gen_client_id()
            client_session.parent = 0
        elif client_session.client_id in self._sessions:
            old, _ = self._sessions[client_session.client_id]
            for k in ("will_flag", "will_message", "will_topic", "will_qos", "keep_alive",
                      "username", "password"):
                setattr(old, k, getattr(client_session, k))
            client_session = old
            client_session.parent = 1
        else:
            client_session.parent = 0
        delay = self.config.get("timeout-disconnect-delay", 0)
        if client_session.keep_alive > 0 and isinstance(delay, int):
            client_session.keep_alive += delay
        return handler, client_session

    def _tell(self, session: Any) -> None:
        """A refused login to ``on_refused(why, user, client id, address)`` (set by
        tdhost.links.broker.Embedded: the console's Wi-Fi notes)."""
        hook = getattr(self, "on_refused", None)
        r = refused_as(getattr(self, "users", None) or {}, session)
        if hook is None or r is None:
            return
        try:
            hook(r[0], r[1], r[2], session.remote_address)
        except Exception:  # noqa: BLE001 -- a note never stops the broker
            log.exception("telling a refused login")

    async def _close_old(self, client_id: str) -> None:
        old = self._sessions.get(client_id)
        writer = getattr(old[1], "writer", None) if old else None
        if writer is not None:
            try:
                await asyncio.wait_for(writer.close(), 2.0)
            except Exception:  # noqa: BLE001 -- a connection gone already
                log.debug("closing the taken-over connection of %s", client_id)

    async def _publish_retained_messages_for_subscription(self, subscription: Any,
                                                          session: Any) -> None:
        # amqtt 0.12.1 sends the retained messages of a *refused* subscription too (and
        # asks for every filter anyone subscribed to: the session's own first, it is cheaper)
        if self.subscribed(session, subscription[0]) and await self._topic_filtering(
                session, subscription[0], Action.SUBSCRIBE):
            await super()._publish_retained_messages_for_subscription(subscription, session)

    async def _handle_client_session(self, reader: Any, writer: Any, client_session: Any,
                                     handler: Any, server: Any, listener_name: Any) -> None:
        try:
            await super()._handle_client_session(reader, writer, client_session, handler,
                                                 server, listener_name)
        finally:
            if client_session.client_id.startswith(REFUSED):  # nothing kept of it
                self._sessions.pop(client_session.client_id, None)
