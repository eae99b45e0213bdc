"""A board on a pty for `make test-board`'s tests: the raw REPL protocol
(Ctrl-A, Ctrl-D soft reset, Ctrl-B, raw-paste refused with ``R\\x00``) in
front of the MicroPython unix port, whose working directory is the board's
filesystem (the "drive").  A soft reset starts a fresh interpreter, as a
board's soft reset gives a fresh heap.  ``FakeBoard(drive).name`` is the
port to open; ``close()`` stops it."""

import os
import select
import subprocess
import sys
import threading
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class FakeBoard:
    def __init__(self, drive, heap="1M"):
        self.drive = drive
        self.heap = heap
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.name = os.ttyname(self.slave)
        self.proc = None
        self.resets = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _write(self, data):
        os.write(self.master, data)

    def _python(self):
        self._kill()
        self.resets += 1
        self.proc = subprocess.Popen(
            [MICROPYTHON, "-X", "heapsize=" + self.heap, os.path.join(HERE, "fakeboard_exec.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=self.drive)

    def _kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _run(self, code):
        if self.proc is None:
            self._python()
        self.proc.stdin.write(b"%d\n" % len(code) + code)
        self.proc.stdin.flush()
        fd = self.proc.stdout.fileno()
        ends = 0
        while ends < 2:
            data = os.read(fd, 4096)
            if not data:  # the interpreter died
                self._write(b"\x04interpreter died\x04>")
                self.proc = None
                return
            ends += data.count(b"\x04")
            self._write(data)

    def _serve(self):
        raw = False
        buf = b""
        skip = 0
        while not self.stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for ch in data:
                if skip:
                    skip -= 1
                    continue
                if not raw:
                    if ch == 1:
                        raw, buf = True, b""
                        self._write(b"\r\n" + BANNER)
                    elif ch == 3:
                        self._write(b"\r\nKeyboardInterrupt\r\n>>> ")
                    continue
                if ch == 2:
                    raw = False
                    self._write(b"\r\n>>> ")
                elif ch == 1:
                    buf = b""
                    self._write(b"\r\n" + BANNER)
                elif ch == 3:
                    buf = b""
                elif ch == 5:  # raw-paste mode asked for: not supported here
                    skip = 2
                    self._write(b"R\x00")
                elif ch == 4:
                    if buf.strip():
                        self._write(b"OK")
                        self._run(buf)
                    else:
                        self._python()
                        self._write(b"soft reboot\r\n\r\nAuto-reload is off.\r\n" + BANNER)
                    buf = b""
                else:
                    buf += bytes((ch,))

    def close(self):
        self.stop = True
        self.thread.join(timeout=5)
        self._kill()
        os.close(self.master)
        os.close(self.slave)
