"""usb_cdc: console and data ports as in-memory pipes.

The simulator writes what the host sends with ``data.feed(b"...")`` and reads
what the box wrote from ``data.sent``.  Like the board: ``timeout=0`` reads
return what is there (or None), ``connected`` says whether a host has the
port open.
"""


class Serial:
    def __init__(self):
        self.timeout = None
        self.write_timeout = None
        self.connected = False
        self._in = bytearray()
        self.sent = bytearray()

    def feed(self, data):
        self._in += data

    @property
    def in_waiting(self):
        return len(self._in)

    def read(self, n=None):
        if not self._in:
            return None
        if n is None or n >= len(self._in):
            out = bytes(self._in)
            self._in = bytearray()
            return out
        out = bytes(self._in[:n])
        self._in = self._in[n:]
        return out

    def readline(self):
        i = self._in.find(b"\n")
        if i < 0:
            return None
        return self.read(i + 1)

    def readinto(self, buf):
        data = self.read(len(buf))
        if not data:
            return None
        buf[:len(data)] = data
        return len(data)

    def write(self, buf):
        self.sent += buf
        return len(buf)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self._in = bytearray()

    def reset_output_buffer(self):
        pass


console = Serial()
data = Serial()


def enable(console=True, data=False):
    pass


def disable():
    pass
