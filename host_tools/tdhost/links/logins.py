"""The broker logins of the boxes paired for Wi-Fi, in a file next to the event key and,
like it, readable by its owner only: ``tdhost pair --wifi-ssid`` adds each box's, ``tdhost
serve --wifi`` gives its broker one user per box (docs/mqtt.md, "The TD's steps")."""

import json
import os
import secrets

from tdhost.links.wire_messages import Login


def path_of(key_file: str) -> str:
    """The logins file of an event key file: event.key -> event-wifi.json."""
    return os.path.splitext(key_file)[0] + "-wifi.json"


def new_password() -> str:
    """A broker password nobody types: 24 URL-safe characters (144 random bits)."""
    return secrets.token_urlsafe(18)


def load(path: str) -> dict[str, Login]:
    """{box id: its login}; {} when there is no file yet.
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


def add(path: str, box: str, table: int, password: str, host: str,
        port: int) -> dict[str, Login]:
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


def broker_address(boxes: dict[str, Login]) -> tuple[str, int] | None:
    """(host, port) the boxes were paired with (the most common), or None."""
    seen: dict[tuple[str, int], int] = {}
    for b in boxes.values():
        k = (b.get("host", ""), b.get("port", 0))
        if k[0]:
            seen[k] = seen.get(k, 0) + 1
    return max(sorted(seen), key=lambda k: seen[k]) if seen else None
