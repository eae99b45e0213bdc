"""`tdhost serve`: the command and its options; the night it runs is tdhost.cli.serving.
docs/host.md, "The live night".
"""

from typing import Any

import click

from tdhost.cli.options import key_id_option, league_options, mqtt_event_option
from tdhost.cli.serving import DEFAULT_POLL_MS, ServeOptions, Serving


@click.command("serve")
@league_options
@click.option("--key-file", type=click.Path(dir_okay=False), default=None,
              help="The event key the boxes were paired with (hex); needed for --usb "
                   "and --mqtt.")
@key_id_option
@click.option("--usb", "devices", multiple=True, metavar="DEV",
              help="A box's USB serial data port (repeatable; `tdhost boxes` lists them).")
@click.option("--links-db", default=None, type=click.Path(dir_okay=False),
              help="The box links' store: the host's boot counter and every box event "
                   "once (default: next to --db, NAME-links.sqlite).")
@click.option("--poll-ms", type=click.IntRange(1, 1000), default=DEFAULT_POLL_MS,
              show_default=True, help="Milliseconds between polls of the boxes.")
@click.option("--web/--no-web", default=True, show_default=True,
              help="Serve the big screen and the TD console.")
@click.option("--listen", default="127.0.0.1", show_default=True,
              help="The web pages' address (0.0.0.0: the whole network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The web pages' port (0: any free one, printed).")
@click.option("--token", default=None,
              help="The TD console's token (default: a new random one, printed).")
@click.option("--mqtt", "mqtt_url", default=None, metavar="URL",
              help="Boxes over Wi-Fi through this MQTT broker (tdhost.links.mqtt): "
                   "mqtt://user:password@host:port.")
@click.option("--wifi", is_flag=True,
              help="Boxes over Wi-Fi: start the broker here with the login of every box"
                   " paired with --wifi-ssid (next to --key-file), the ACL and no"
                   " anonymous clients (docs/mqtt.md).")
@click.option("--broker", "broker_kind", type=click.Choice(["auto", "embedded", "mosquitto"]),
              default="auto", show_default=True,
              help="With --wifi: the embedded broker, or Debian's Mosquitto (auto:"
                   " Mosquitto for more boxes than the embedded one carries, if installed).")
@click.option("--broker-listen", default="0.0.0.0", show_default=True,
              help="With --wifi: the broker's address (0.0.0.0: every network).")
@click.option("--broker-port", type=click.IntRange(1, 65535), default=1883,
              show_default=True, help="With --wifi: the broker's port.")
@mqtt_event_option
@click.option("--seed", type=click.IntRange(0), default=None,
              help="Seed for draws made from the console without one (default: "
                   "random, printed).")
@click.option("--demo", is_flag=True,
              help="A sample tournament (20 players, 3 tables) in a temporary league "
                   "file with three simulated boxes dealt by bots.")
@click.option("--demo-speed", type=click.FloatRange(0.1, 50), default=1.0,
              show_default=True,
              help="With --demo: how many times faster than real time the night runs.")
@click.option("--season", default="", envvar="TDHOST_SEASON", metavar="URL",
              help="The league server (also $TDHOST_SEASON): the league file is pushed to it"
                   " in the background, at the start and every minute (docs/league.md).")
@click.option("--polls", type=click.IntRange(1), default=None, hidden=True,
              help="Stop after this many polls (tests).")
def serve(**options: Any) -> None:
    """Run the night: the boxes on USB (and MQTT), busts, balancing and breaking plans
    sent to the boxes, hand for hand, the master clock, the web console."""
    Serving(ServeOptions(**options)).run()


COMMANDS = (serve,)
