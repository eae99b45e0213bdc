"""League points for a finishing place: a named formula, an arithmetic expression in n
(entries) and p (place), or a table of points per place.

    sqrt     10 * sqrt(n / p)      (the default; the winner of 16 gets 40, 4th gets 20)
    linear   n - p + 1             (one point per player finished above)
    table    `places = [25, 18, 15, ...]`: points for 1st, 2nd, ...; 0 below the list

Every formula adds `participation` points per player.  Players who tie (same-hand busts
that stay equal, equal chips at a time-limited end) share the places they span and get the
average of those places' points.  Points are rounded to `decimals` places.
"""

import ast
import math

NAMED = {
    "sqrt": "10 * sqrt(n / p)",
    "linear": "n - p + 1",
}

_FUNCS = {
    "sqrt": math.sqrt, "log": math.log, "min": min, "max": max,
    "floor": math.floor, "ceil": math.ceil, "round": round, "abs": abs,
}
_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b,
}


class FormulaError(ValueError):
    """The formula is not a plain arithmetic expression in n and p."""


def _compile(expr):
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as err:
        raise FormulaError("%r is not an arithmetic expression (%s)" % (expr, err.msg))

    def check(node):
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
            for a in node.args:
                check(a)
            return
        raise FormulaError("%r may only use numbers, n, p, + - * / // %% ** and %s"
                           % (expr, ", ".join(sorted(_FUNCS))))
    check(tree)
    return tree


def _eval(node, n, p):
    if isinstance(node, ast.Expression):
        return _eval(node.body, n, p)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return n if node.id == "n" else p
    if isinstance(node, ast.BinOp):
        return _BINOPS[type(node.op)](_eval(node.left, n, p), _eval(node.right, n, p))
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, n, p)
        return -v if isinstance(node.op, ast.USub) else v
    return _FUNCS[node.func.id](*[_eval(a, n, p) for a in node.args])


def check(cfg):
    """Raise FormulaError if *cfg* cannot score every place of fields of 2..200 players."""
    for n in (2, 3, 10, 48, 200):
        for p in range(1, n + 1):
            v = place_points(cfg, p, n)
            if not math.isfinite(v):
                raise FormulaError("%r gives %r for place %d of %d" % (cfg["formula"], v, p, n))


def place_points(cfg, p, n):
    """Points for place *p* of *n* entries (before participation and rounding)."""
    if cfg["formula"] == "table":
        places = cfg["places"]
        return places[p - 1] if p <= len(places) else 0
    tree = _compile(NAMED.get(cfg["formula"], cfg["formula"]))
    try:
        v = _eval(tree, n, p)
    except (ArithmeticError, ValueError, TypeError) as err:
        raise FormulaError("%r fails for place %d of %d: %s" % (cfg["formula"], p, n, err))
    if isinstance(v, complex):
        raise FormulaError("%r is not a real number for place %d of %d" % (cfg["formula"], p, n))
    return v


def points(cfg, first, last, n):
    """Points for a player who finished in places first..last (a tie spans several)."""
    span = range(first, last + 1)
    avg = sum(place_points(cfg, p, n) for p in span) / len(span)
    return round(avg + cfg["participation"], cfg["decimals"])
