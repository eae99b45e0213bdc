"""socketpool: sockets that cannot reach anything (EHOSTUNREACH), like a
board whose Wi-Fi is down."""

try:
    from typing import Any, Optional  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

EHOSTUNREACH = 113


class Socket:
    def __init__(self, family: int = 2, type: int = 1, proto: int = 0) -> None:
        self.timeout: Optional[float] = None

    def settimeout(self, t: Any) -> None:
        self.timeout = t

    def setblocking(self, flag: Any) -> None:
        self.timeout = None if flag else 0

    def setsockopt(self, *args: Any) -> None:
        pass

    def connect(self, addr: Any) -> None:
        raise OSError(EHOSTUNREACH)

    def bind(self, addr: Any) -> None:
        pass

    def listen(self, n: int = 1) -> None:
        pass

    def send(self, buf: bytes) -> None:
        raise OSError(EHOSTUNREACH)

    def recv_into(self, buf: bytes, n: int = 0) -> None:
        raise OSError(EHOSTUNREACH)

    def close(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SocketPool:
    AF_INET = 2
    SOCK_STREAM = 1
    SOCK_DGRAM = 2
    SOL_SOCKET = 1
    SO_REUSEADDR = 2
    IPPROTO_TCP = 6
    TCP_NODELAY = 1
    EAGAIN = 11
    ETIMEDOUT = 110
    gaierror = OSError

    def __init__(self, radio: Any) -> None:
        self.radio = radio

    def socket(self, family: int = 2, type: int = 1, proto: int = 0) -> Any:
        return Socket(family, type, proto)

    def getaddrinfo(self, host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0,
                    flags: int = 0) -> None:
        raise OSError(-2)
