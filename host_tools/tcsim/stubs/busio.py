"""busio: SPI, I2C and UART that talk to nothing (Blinka's displayio imports it)."""

try:
    from typing import Any, Optional  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass


class SPI:
    def __init__(self, clock: Any = None, MOSI: Any = None, MISO: Any = None) -> None:
        self.frequency = 0

    def try_lock(self) -> Any:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, baudrate: int = 100000, polarity: int = 0, phase: int = 0,
                  bits: int = 8) -> None:
        self.frequency = baudrate

    def write(self, buf: bytes, start: int = 0, end: Any = None) -> None:
        pass

    def deinit(self) -> None:
        pass


class I2C:
    def __init__(self, scl: Any = None, sda: Any = None, frequency: int = 100000,
                 timeout: int = 255) -> None:
        pass

    def try_lock(self) -> Any:
        return True

    def unlock(self) -> None:
        pass

    def scan(self) -> Any:
        return []

    def deinit(self) -> None:
        pass


class UART:
    def __init__(self, tx: Any = None, rx: Any = None, baudrate: int = 9600, timeout: int = 1,
                 **kwargs: Any) -> None:
        self.in_waiting = 0

    def read(self, n: Optional[int] = None) -> None:
        return None

    def write(self, buf: bytes) -> Any:
        return len(buf)

    def deinit(self) -> None:
        pass
