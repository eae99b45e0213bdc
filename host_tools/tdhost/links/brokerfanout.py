"""How a message reaches its subscribers on the embedded broker (amqtt 0.12.1; docs/mqtt.md,
"Brokers"): ``Fanout``, amqtt's Broker delivering each message to the subscriptions whose
filters it matches -- its own topic looked up, and the few filters with wildcards tried --
instead of trying every filter anyone subscribed to.

amqtt 0.12.1's ``_run_broadcast`` tries each message against every subscription and formats a
debug line for each, logged or not: 500 boxes each subscribed to their own ``in`` made every
message cost about 120 us of the broker's thread in the host's process (bench/sync_bench.py,
``amqtt_match_us_500``), so a burst of the boxes' frames queued the host's level change behind
it for seconds (the #30 regression: docs/mqtt.md, "Limits").
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.mqtt.constants import QOS_1, QOS_2

BATCH = 64  # messages one turn of amqtt's broadcast loop delivers at most (then it yields)


def is_wild(topic_filter: str) -> bool:
    return "+" in topic_filter or "#" in topic_filter


class Subscriptions(dict[str, list[tuple[Any, int]]]):
    """amqtt's table of subscriptions (filter -> [(session, qos)]), shown short: amqtt 0.12.1
    formats the whole table for a debug line at every SUBSCRIBE, logged or not (0.7 ms at
    500 boxes)."""

    def __repr__(self) -> str:
        return "<%d subscribed filters>" % len(self)


class Fanout(Broker):
    """amqtt's Broker with the fan-out of the module notes.  ``_wild``: every filter with a
    wildcard ever subscribed (those no longer subscribed are dropped when a message meets
    them); a filter without one is found by the message's own topic."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._subscriptions: dict[str, list[tuple[Any, int]]] = Subscriptions()
        self._wild: set[str] = set()

    async def add_subscription(self, subscription: tuple[str, int], session: Any) -> int:
        qos = await super().add_subscription(subscription, session)
        if is_wild(subscription[0]) and subscription[0] in self._subscriptions:
            self._wild.add(subscription[0])
        return qos

    def filters_for(self, topic: str) -> list[str]:
        """The subscribed filters *topic* matches (amqtt's rule, ``_matches``)."""
        subs = self._subscriptions
        out = [topic] if topic in subs else []
        gone = []
        for f in self._wild:
            if f not in subs:
                gone.append(f)
            elif self._matches(topic, f):
                out.append(f)
        for f in gone:
            self._wild.discard(f)
        return out

    async def _run_broadcast(self, running_tasks: deque[asyncio.Task[Any]]) -> None:
        # amqtt 0.12.1's, over the matching filters only and without its debug lines, and
        # the messages already queued with it (up to BATCH): its loop spends a task and a
        # wait on each call
        broadcast = await self._broadcast_queue.get()
        for _ in range(BATCH):
            await self.deliver(broadcast, running_tasks)
            if self._broadcast_queue.empty():
                return
            broadcast = self._broadcast_queue.get_nowait()
        await self.deliver(broadcast, running_tasks)

    async def deliver(self, broadcast: dict[str, Any],
                      running_tasks: deque[asyncio.Task[Any]]) -> None:
        """One message to each session whose subscription it matches (amqtt's rules)."""
        topic = broadcast["topic"]
        for k_filter in self.filters_for(topic):
            for target_session, sub_qos in list(self._subscriptions.get(k_filter, ())):
                qos = broadcast.get("qos", sub_qos)
                if not await self._topic_filtering(target_session, topic=topic,
                                                   action=Action.RECEIVE):
                    continue
                if target_session.transitions.state != "connected":
                    # kept for a session that is not clean, at QoS 1 or 2 [MQTT 3.1.2.4]
                    if (not target_session.clean_session and qos in (QOS_1, QOS_2)
                            and not target_session.is_anonymous):
                        await self._retain_broadcast_message(broadcast, qos, target_session)
                    continue
                handler = self._get_handler(target_session)
                if handler:
                    running_tasks.append(asyncio.ensure_future(
                        handler.mqtt_publish(topic, broadcast["data"], qos, retain=False)))

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                          session: Any) -> None:
        # amqtt 0.12.1 calls this at each connect for every filter *anyone* subscribed to:
        # only the session's own subscriptions get their retained messages
        if self.subscribed(session, subscription[0]):
            await super()._publish_retained_messages_for_subscription(subscription, session)

    def subscribed(self, session: Any, topic_filter: str) -> bool:
        """Whether *session* holds a subscription to *topic_filter*."""
        for s, _ in self._subscriptions.get(topic_filter, ()):
            if s is session or s.client_id == session.client_id:
                return True
        return False
