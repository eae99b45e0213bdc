"""busio: SPI, I2C and UART that talk to nothing (Blinka's displayio imports it)."""


class SPI:
    def __init__(self, clock=None, MOSI=None, MISO=None):
        self.frequency = 0

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def configure(self, baudrate=100000, polarity=0, phase=0, bits=8):
        self.frequency = baudrate

    def write(self, buf, start=0, end=None):
        pass

    def deinit(self):
        pass


class I2C:
    def __init__(self, scl=None, sda=None, frequency=100000, timeout=255):
        pass

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def scan(self):
        return []

    def deinit(self):
        pass


class UART:
    def __init__(self, tx=None, rx=None, baudrate=9600, timeout=1, **kwargs):
        self.in_waiting = 0

    def read(self, n=None):
        return None

    def write(self, buf):
        return len(buf)

    def deinit(self):
        pass
