"""The firmware laid out by concept (issue #14: "no module over ~600 lines, no class
over ~300"), measured as tests/host/test_layout.py measures the host."""

import ast
import os

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")
MAX_MODULE, MAX_CLASS = 600, 300


def test_no_firmware_module_over_600_lines_and_no_class_over_300():
    big = []
    for package in ("tableclock", "tcbox"):
        folder = os.path.join(FIRMWARE, package)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            if len(text.splitlines()) > MAX_MODULE:
                big.append("%s/%s: %d lines" % (package, name, len(text.splitlines())))
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef):
                    size = node.end_lineno - node.lineno + 1
                    if size > MAX_CLASS:
                        big.append("%s/%s %s: %d lines" % (package, name, node.name, size))
    assert big == []
