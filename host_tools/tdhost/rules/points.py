"""League points for a finishing place: a named formula (sqrt, linear), an arithmetic
expression in n (entries) and p (place), or a table of points per place; tied players share
the average of their places' points.  docs/host.md §7 lists the formulas.
"""

import ast
import math
from collections.abc import Callable, Mapping
from typing import Any

NAMED = {
    "sqrt": "10 * sqrt(n / p)",
    "linear": "n - p + 1",
}

Number = int | float
PointsRules = Mapping[str, Any]  # the file's [points]: formula, places?, participation, decimals

_FUNCS: dict[str, Callable[..., Number]] = {
    "sqrt": math.sqrt, "log": math.log, "min": min, "max": max,
    "floor": math.floor, "ceil": math.ceil, "round": round, "abs": abs,
}
_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b,
}


class FormulaError(ValueError):
    """The formula is not a plain arithmetic expression in n and p."""


def _compile(expr: str) -> ast.Expression:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as err:
        raise FormulaError("%r is not an arithmetic expression (%s)" % (expr, err.msg))

    def check(node: ast.AST) -> None:
        if isinstance(node, ast.Expression):
            return check(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return
        if isinstance(node, ast.Name):
            if node.id not in ("n", "p"):
                raise FormulaError("%r uses %r: only n (entries) and p (place) are known"
                                   % (expr, node.id))
            return
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            check(node.left)
            check(node.right)
            return
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return check(node.operand)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in _FUNCS and not node.keywords:
            for arg in node.args:
                check(arg)
            return
        raise FormulaError("%r may only use numbers, n, p, + - * / // %% ** and %s"
                           % (expr, ", ".join(sorted(_FUNCS))))
    check(tree)
    return tree


def _eval(node: ast.AST, entries: int, place: int) -> Any:
    """The value of a checked formula (_compile) for *place* of *entries*."""
    if isinstance(node, ast.Expression):
        return _eval(node.body, entries, place)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return entries if node.id == "n" else place
    if isinstance(node, ast.BinOp):
        return _BINOPS[type(node.op)](_eval(node.left, entries, place),
                                      _eval(node.right, entries, place))
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, entries, place)
        return -value if isinstance(node.op, ast.USub) else value
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    return _FUNCS[node.func.id](*[_eval(arg, entries, place) for arg in node.args])


def check(cfg: PointsRules) -> None:
    """Raise FormulaError if *cfg* cannot score every place of fields of 2..200 players."""
    for entries in (2, 3, 10, 48, 200):
        for place in range(1, entries + 1):
            value = place_points(cfg, place, entries)
            if not math.isfinite(value):
                raise FormulaError("%r gives %r for place %d of %d"
                                   % (cfg["formula"], value, place, entries))


def place_points(cfg: PointsRules, place: int, entries: int) -> Number:
    """Points for *place* of *entries* (before participation and rounding)."""
    if cfg["formula"] == "table":
        places = cfg["places"]
        return places[place - 1] if place <= len(places) else 0
    formula: str = cfg["formula"]
    tree = _compile(NAMED.get(formula, formula))
    try:
        value = _eval(tree, entries, place)
    except (ArithmeticError, ValueError, TypeError) as err:
        raise FormulaError("%r fails for place %d of %d: %s"
                           % (cfg["formula"], place, entries, err))
    if isinstance(value, complex):
        raise FormulaError("%r is not a real number for place %d of %d"
                           % (cfg["formula"], place, entries))
    return value


def points_text(value: Number) -> str:
    """Points as printed: "40", "12.5" (at most two decimals, no trailing zeros)."""
    return ("%.2f" % value).rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def points(cfg: PointsRules, first: int, last: int, entries: int) -> Number:
    """Points for a player who finished in places first..last (a tie spans several)."""
    span = range(first, last + 1)
    avg = sum(place_points(cfg, place, entries) for place in span) / len(span)
    return round(avg + cfg["participation"], cfg["decimals"])
