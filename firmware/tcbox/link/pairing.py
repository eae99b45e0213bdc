"""Which link a box's pairing asks for: Wi-Fi and MQTT when its settings name a network and
a broker, else the USB cable (docs/mqtt.md, "Pairing a box for Wi-Fi").  tcbox/startup.py asks
before it imports tcbox/mqtt_link.py, so a USB box never loads that.  No hardware imports.
"""


def settings_of(pairing):
    """(settings, event topic name) of a pairing (``Link.pairing``, the
    record's ``extra["p"]``): the event is ``settings["mqtt_event"]``, else
    the key id.  (None, None) without settings."""
    if not isinstance(pairing, dict):
        return None, None
    settings = pairing.get("settings")
    if not isinstance(settings, dict):
        return None, None
    return settings, settings.get("mqtt_event") or pairing.get("key_id")


def wants_mqtt(settings):
    """True when *settings* name a Wi-Fi network and an MQTT broker."""
    return (isinstance(settings, dict) and isinstance(settings.get("wifi_ssid"), str)
            and isinstance(settings.get("mqtt_host"), str) and bool(settings["wifi_ssid"])
            and bool(settings["mqtt_host"]))
