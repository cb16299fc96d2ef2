"""The benchmark report's table: one row per figure, with its goal and verdict.

Its own module so that every script of the report (benchmark, cards, the serve and venue loads)
prints rows the same way without importing each other.
"""
from __future__ import annotations

Sample = tuple[float, float]  # (wall seconds, CPU seconds)


class Table:
    """Rows of (wall, CPU) medians, printed as they come (so a time limit loses only the rest).

    The verdict uses CPU time, which other work on a shared machine disturbs least.
    """

    LINE = "{:<38}  {:>10}  {:>10}  {:>10}  {}"

    def __init__(self) -> None:
        print(self.LINE.format("measure", "wall", "CPU", "target", "").rstrip())
        print(self.LINE.format("-" * 38, "-" * 10, "-" * 10, "-" * 10, "------"))

    def add(self, what: str, value: Sample, unit: str, target: float | None) -> None:
        def show(v: float) -> str:
            return f"{v:.2f}x" if unit == "x" else f"{v * 1000:.1f} ms"

        goal = "" if target is None else f"<= {target:g}x" if unit == "x" else f"< {target * 1000:g} ms"
        verdict = "" if target is None else "ok" if value[1] <= target else "MISSED"
        print(self.LINE.format(what, show(value[0]), show(value[1]), goal, verdict).rstrip(), flush=True)
