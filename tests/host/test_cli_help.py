"""Every `tdhost` command is a top-level function whose docstring is its --help, every option
says what it does, and an option many commands share reads the same in each
(tdhost.cli.options: one decorator per shared option)."""

import inspect

import pytest

from tdhost.cli.app import cli

SHARED = ("--db", "--tournament", "--at", "--plain", "--yes", "--key-id", "--mqtt-event")


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_a_command_s_help_is_its_function_s_docstring(name):
    command = cli.commands[name]
    function = command.callback
    assert "<locals>" not in function.__qualname__, "%s is defined inside a function" % name
    assert function.__module__.startswith("tdhost.cli."), function.__module__
    assert command.help.split() == inspect.getdoc(function).split(), name
    assert len(command.help.split()) >= 5, "%s: %r says too little" % (name, command.help)


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_option_is_documented(name):
    command = cli.commands[name]
    for param in command.params:
        if getattr(param, "hidden", False) or param.param_type_name == "argument":
            continue
        assert param.help and len(param.help.split()) >= 2, "%s %s" % (name, param.opts[0])


def test_a_shared_option_reads_the_same_in_every_command():
    seen = {}
    for command in cli.commands.values():
        for param in command.params:
            for opt in param.opts:
                if opt in SHARED:
                    seen.setdefault(opt, set()).add(param.help)
    assert set(seen) == set(SHARED)
    assert {opt: helps for opt, helps in seen.items() if len(helps) > 1} == {}
