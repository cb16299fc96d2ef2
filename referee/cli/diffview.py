"""`referee diff` as text: the summary first, then each difference once under the situation that
owns it, its conditions in the questions' own words; `--paths` prints every differing path."""
from __future__ import annotations

from typing import Any

from ..diff import ASPECTS, Report, Summary, answer, describe, exit_text
from ..rules.loader import Ruleset
from ..safe import clean
from .base import out
from .show import styled, wrapped

KIND_WORDS = {"error": "cannot be ruled", "dead": "dead hands", "game": "the game", "payments": "payments",
              "points": "points", "tiles": "tiles"}


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _way(rss: tuple[Ruleset, Ruleset], sid: str, way: dict[str, Any]) -> str:
    return "; ".join(answer(rss, sid, f, v) for f, v in way.items()) or "in every case"


def summary(s: Summary, report: Report, rs_a: Ruleset, rs_b: Ruleset) -> None:
    """What differs, in numbers, then one line a situation: read this much and you know the scope."""
    sits = s.situations()
    n_paths = sum(len(x.differences) for x in report.situations)
    if s.owned:
        wrapped(out, styled((f"{rs_a.id} and {rs_b.id} rule differently in {_plural(len(s.owned), 'case')} "
                             f"in {_plural(len(sits), 'situation')}", "bold"),
                            f" ({n_paths:,} of {report.paths:,} paths walked differ)."), rest="  ")
        kinds = " · ".join(f"{KIND_WORDS[k]} ({n})" for k, n in s.kinds().items())
        wrapped(out, f"Cases by what differs: {kinds}", rest="  ")
        for sid in sits:
            cases = [o for o in s.owned if o.situation == sid]
            aspects = [x for x in ("error", *ASPECTS) if any(x in o.differs for o in cases)]
            wrapped(out, styled(f"{cases[0].title} ({sid}): ", (_plural(len(cases), "case"), "bold"),
                                " (" + ", ".join(KIND_WORDS[x] for x in aspects) + ")"), first="  ", rest="      ")
    else:
        wrapped(out, styled((f"{rs_a.id} and {rs_b.id} rule every case alike", "bold"), f" ({report.paths:,} paths walked)."))
    for rid, rs_other, only in ((rs_a.id, rs_a, report.only_in_a), (rs_b.id, rs_b, report.only_in_b)):
        if only:
            wrapped(out, styled((f"Only in {rid}:", "bold"), " " + ", ".join(f"{rs_other.situations[x].title} ({x})" for x in only)),
                    rest="  ")
    if s.worded or s.questions:
        wrapped(out, f"Alike in outcome but not in words: {_plural(len(s.worded), 'ruling')} worded or cited differently, "
                     f"{_plural(len(s.questions), 'question')} asked differently (at the end).", rest="  ")


def cases(s: Summary, rs_a: Ruleset, rs_b: Ruleset) -> None:
    rss = (rs_b, rs_a)
    width = max(len(rs_a.id), len(rs_b.id))
    for sid in s.situations():
        owned = [o for o in s.owned if o.situation == sid]
        out.print()
        wrapped(out, styled((f"{owned[0].title} ({sid})", "bold"), (f" · {_plural(len(owned), 'case')}", "dim")), rest="    ")
        tiles_told: dict[tuple[str, str | None, tuple[str, ...]], int] = {}
        for i, o in enumerate(owned, 1):
            lead = f"  {i}. "
            ways = [_way(rss, o.via or sid, w) for w in o.ways]
            via = f"from '{o.via}': " if o.via else ""
            wrapped(out, styled(("When: ", "dim"), via + ways[0]), first=lead, rest=" " * len(lead))
            for w in ways[1:]:
                wrapped(out, styled(("or: ", "dim"), w), first=" " * len(lead), rest=" " * len(lead))
            pad = " " * len(lead)
            for rs, side, ex in ((rs_a, o.shown.a, o.a), (rs_b, o.shown.b, o.b)):
                wrapped(out, exit_text(rs, side, ex), first=f"{pad}{clean(rs.id):<{width}}  ", rest=pad + " " * (width + 4))
            if o.varies:
                shown = "; ".join(answer(rss, sid, f, o.shown.answers[f]) for f in o.varies if f in o.shown.answers)
                wrapped(out, f"amounts shown for: {shown}", first=pad + "  ", style="dim")
            if "tiles" in o.differs:
                for rs, side, ex in ((rs_a, o.shown.a, o.a), (rs_b, o.shown.b, o.b)):
                    if ex.kind == "goto" or not side.tiles:
                        continue
                    said = (rs.id, side.ruling, tuple(side.tiles))
                    if said in tiles_told:  # one ruling's tiles, said once a situation
                        wrapped(out, f"{rs.id} tiles: as in case {tiles_told[said]}", first=pad + "  ", style="dim")
                        continue
                    tiles_told[said] = i
                    for t in side.tiles:
                        wrapped(out, f"{rs.id} tiles: {t}", first=pad + "  ", rest=pad + "    ", style="dim")
            if o.entries:
                n = len(o.entries)
                wrapped(out, f"also met from {_plural(n, 'situation')} that {'leads' if n == 1 else 'lead'} here",
                        first=pad + "  ", style="dim")


def worded(s: Summary, rs_a: Ruleset, rs_b: Ruleset) -> None:
    if not (s.worded or s.questions):
        return
    out.print()
    wrapped(out, styled(("Alike in outcome, not in words", "bold"),
                        " (the same dead hands, game, payments and tiles on every path)"), rest="    ")
    for sid, fact, ask_a, ask_b in s.questions:
        wrapped(out, styled((f"{sid}: ", "bold"), f"asked differently ({fact})"), first="  ", rest="    ")
        wrapped(out, f"{rs_a.id}: {ask_a}", first="    ", rest="      ")
        wrapped(out, f"{rs_b.id}: {ask_b}", first="    ", rest="      ")
    for w in s.worded:
        what = ", ".join(w.what)
        wrapped(out, styled((f"{w.situation}: ", "bold"), f"{w.a.ruling} ({rs_a.id}) and {w.b.ruling} ({rs_b.id}) differ in {what}"),
                first="  ", rest="    ")
        if "citations" in w.what:
            for rs, side in ((rs_a, w.a), (rs_b, w.b)):
                wrapped(out, f"{rs.id} cites: " + "; ".join(side.cite), first="    ", rest="      ",
                        style="dim")


def paths(report: Report, rs_a: Ruleset, rs_b: Ruleset) -> None:
    """Every differing path under the situation it starts in, as the walk met it."""
    width = max(len(rs_a.id), len(rs_b.id))
    for s in report.differing:
        out.print()
        wrapped(out, styled((f"{s.id} · {s.title}", "bold"), (f" ({len(s.differences)} of {s.paths} paths differ)", "dim")),
                rest="    ")
        for d in s.differences:
            answers = ", ".join(f"{k}={v}" for k, v in d.answers.items()) or "(no questions)"
            wrapped(out, styled((answers, "bold"), ("  differs: " + ", ".join(d.differs), "dim")), first="  ", rest="      ")
            for rid, side, unit in ((rs_a.id, d.a, rs_a.scoring.unit), (rs_b.id, d.b, rs_b.scoring.unit)):
                wrapped(out, describe(side, unit), first=f"    {clean(rid):<{width}}  ")
            if "tiles" in d.differs:
                for rid, side in ((rs_a.id, d.a), (rs_b.id, d.b)):
                    for t in side.tiles:
                        wrapped(out, f"{rid} tiles: {t}", first="      ", rest="        ", style="dim")


def _contradicted_count(rs: Ruleset, found: list[Any]) -> str:
    kept = sum(1 for x in found if x.unchanged or not x.known)
    return (f"{rs.id}'s own sources contradict {_plural(len(found), 'ruling')} of {rs.meta.extends}: "
            f"{len(found) - kept} ruled otherwise in {rs.id}, {kept} left as {rs.meta.extends} rules "
            f"{'them' if kept != 1 else 'it'} (listed at the end).")


def contradicted_summary(rows: list[tuple[Ruleset, list[Any]]]) -> None:
    """One line a ruleset whose own source contradicts inherited rulings (its `contradicts:` lists)."""
    for rs, found in rows:
        if found:
            wrapped(out, _contradicted_count(rs, found), rest="  ")


def contradicted(rows: list[tuple[Ruleset, list[Any]]]) -> None:
    """Each inherited ruling a ruleset's own source rules otherwise on, and what the ruleset rules
    instead: the cases `diff` cannot show, where both rule alike because one still inherits the
    other's ruling. One line for each ruled otherwise; what the source says where one is not."""
    for rs, found in rows:
        if not found:
            continue
        base = rs.meta.extends
        out.print()
        wrapped(out, styled((f"Rulings of {base} that {rs.id}'s own sources contradict", "bold"),
                            (f" · {_plural(len(found), 'ruling')}, each -> what {rs.id} rules instead", "dim")), rest="    ")
        for x in found:
            cited = f"{x.source}: {x.entry.section}"
            if x.known and not x.unchanged:
                now = x.now or "its own rulings"
                wrapped(out, styled((x.entry.ruling, "bold"), f" -> {now} ({x.situation}) · {cited}"), first="  ", rest="      ")
                continue
            why = (f"{base} has no ruling {x.entry.ruling}" if not x.known
                   else f"{rs.id} still rules it as {base} does; patch it")
            wrapped(out, styled((x.entry.ruling, "bold"), f" ({x.situation or '?'}) · {why} (check fails) · {cited}: {x.entry.says}"),
                    first="  ", rest="      ")
