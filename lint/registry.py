"""Every rule a run knows: the modules of ``a2alint.rules`` and the ``a2alint.rules`` entry points."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache
from importlib.metadata import entry_points

from a2alint.rule import Rule

CODE = re.compile(r"^[A-Z]{1,4}[0-9]{3}$")
NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class RegistryError(Exception):
    pass


def _rules_in(module: object) -> list[type[Rule]]:
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and "code" in vars(value)
    ]


@lru_cache(maxsize=1)
def load_rules() -> dict[str, type[Rule]]:
    """``code -> rule class`` for the built-in rules and installed plug-ins, sorted by code."""
    import a2alint.rules as package

    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(package.__path__):
        found += _rules_in(importlib.import_module(f"{package.__name__}.{info.name}"))
    for entry in entry_points(group="a2alint.rules"):
        loaded = entry.load()
        found += [loaded] if isinstance(loaded, type) else _rules_in(loaded)
    registry: dict[str, type[Rule]] = {}
    for rule in found:
        if not CODE.match(rule.code) or not NAME.match(rule.name):
            raise RegistryError(f"rule {rule.__qualname__}: bad code {rule.code!r} or name {rule.name!r}")
        if rule.code in registry and registry[rule.code] is not rule:
            raise RegistryError(f"two rules claim {rule.code}: {registry[rule.code].__qualname__}, {rule.__qualname__}")
        registry[rule.code] = rule
    return dict(sorted(registry.items()))


def markdown_table(registry: dict[str, type[Rule]]) -> str:
    """The README's rule table (a test keeps the README in step with the registry)."""
    rows = ["| Code | Name | Severity | What it flags |", "| --- | --- | --- | --- |"]
    for rule in registry.values():
        severity = rule.severity + (", preview" if rule.preview else "") + (", opt-in" if rule.opt_in else "")
        rows.append(f'| <a id="{rule.code}"></a>{rule.code} | `{rule.name}` | {severity} | {rule.summary()} |')
    return "\n".join(rows) + "\n"
