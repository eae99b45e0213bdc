"""The broker logins of the boxes paired for Wi-Fi (docs/mqtt.md, "The TD's steps").

    path = logins.path_of("event.key")          # event.key -> event-wifi.json
    logins.add(path, "tc-3f2a9c01abcd", 4, password, "192.168.1.10", 1883)
    boxes = logins.load(path)                    # {box id: {"table", "password", ...}}

``tdhost pair --wifi-ssid ...`` makes each box's broker password here (random,
``new_password``) and ``tdhost serve --wifi`` gives its broker one user per box
from this file.  It sits next to the event key and, like it, is readable by its
owner only.  A box's user name is its box id; its signing key is not kept (it is
derived from the event key: tableclock.protocol.box_key).
"""

import json
import os
import secrets


def path_of(key_file):
    """The logins file of an event key file: event.key -> event-wifi.json."""
    return os.path.splitext(key_file)[0] + "-wifi.json"


def new_password():
    """A broker password nobody types: 24 URL-safe characters (144 random bits)."""
    return secrets.token_urlsafe(18)


def load(path):
    """{box id: {"table", "password", "host", "port"}}; {} when there is no file yet.
    ValueError with a sentence for a file that is not one of ours."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise ValueError("%s cannot be read as the Wi-Fi boxes' logins (%s)" % (path, e))
    boxes = data.get("boxes") if isinstance(data, dict) else None
    if not isinstance(boxes, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("password"), str) for v in boxes.values()):
        raise ValueError("%s does not hold the Wi-Fi boxes' logins" % path)
    return boxes


def add(path, box, table, password, host, port):
    """Keep *box*'s login (pairing it again replaces it), written atomically and
    readable by the owner only."""
    boxes = load(path)
    boxes[box] = {"table": table, "password": password, "host": host, "port": port}
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"boxes": boxes}, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return boxes


def broker_address(boxes):
    """(host, port) the boxes were paired with (the most common), or None."""
    seen = {}
    for b in boxes.values():
        k = (b.get("host"), b.get("port"))
        if k[0]:
            seen[k] = seen.get(k, 0) + 1
    return max(sorted(seen), key=seen.get) if seen else None
