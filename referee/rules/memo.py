"""What a process works out once and reads many times, kept in a plain dict with a bound.

A long `referee serve` loads and prints many rulesets over its life: a memo that only grew would
hold every one. `keep` empties a memo once it holds its limit, then stores; the lookups stay the
dict's own (`memo.get`), so the hot paths that read these memos pay nothing for the bound.
"""
from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(memo: dict[K, V], key: K, value: V, limit: int) -> V:
    """Store `value` under `key` (emptying a `memo` already at `limit` entries first); return it."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
