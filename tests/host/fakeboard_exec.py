"""The fake board's Python (tests/host/fakeboard.py), run by the MicroPython unix
port: reads "N\\n" and N bytes of code from stdin, runs them in one namespace
(as a raw REPL does between soft resets) and ends each run with the raw REPL's
``\\x04 errors \\x04>``."""

import io
import sys


def main():
    g = {"__name__": "__main__"}
    inp = sys.stdin.buffer
    while True:
        head = inp.readline()
        if not head:
            return
        n = int(head)
        code = b""
        while len(code) < n:
            code += inp.read(n - len(code))
        err = ""
        try:
            exec(code.decode(), g)
        except Exception as e:  # noqa: BLE001 -- the REPL reports every error
            buf = io.StringIO()
            sys.print_exception(e, buf)
            err = buf.getvalue()
        sys.stdout.write("\x04" + err + "\x04>")


main()
