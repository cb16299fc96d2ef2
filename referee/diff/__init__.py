"""Where two rulesets rule differently on the same facts: `referee diff` and the printed
differences sheet (`referee handout --sheet diff`) both call it.

    report = diff(rs_a, rs_b)              # every path of every situation, walked in both (walk)
    summary = summarize(report, rs_a, rs_b)  # each difference once, under its owner (owners)

`words` phrases a condition as its question and answer. Pure: no I/O; the CLI renders.
"""
from __future__ import annotations

from .owners import Exit, Owned, Summary, Worded, exit_text, key_of, owner, summarize, summary_json
from .walk import ASPECTS, Difference, Report, Side, SituationDiff, describe, diff, every_ruling, report_json
from .words import answer

__all__ = ["ASPECTS", "Difference", "Exit", "Owned", "Report", "Side", "SituationDiff", "Summary", "Worded",
           "answer", "describe", "diff", "every_ruling", "exit_text", "key_of", "owner", "report_json", "summarize", "summary_json"]
