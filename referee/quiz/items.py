"""Quiz items: the scenarios that answer a published question and record what a ruling settles."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..rules import model as m
from ..errors import RefereeError
from ..rules.loader import PACKAGE_DIR, Ruleset, data_dir
from ..ruling.outcome import Outcome
from ..ruling.scenarios import Scenario, compare, facts_of, load_file, run, scenario_files

PARTS = ("dead", "game", "pay")  # what every ruling settles, in the order a judge reads it out
PART_TITLES = {"dead": "Dead hands", "game": "Game", "pay": "Payments", "points": "Points"}


@dataclass(frozen=True)
class Key:
    """What the ruling settles, as seats and numbers: the scenario's recorded outcome."""

    dead: tuple[str, ...]  # seats, in seat order
    game: str
    pay: tuple[tuple[str, str, int], ...]  # (payer, payee, amount), sorted; points: (seat, "", points)


@dataclass(frozen=True)
class Item:
    id: str  # the scenario's path under scenarios/, without .yaml: 'nmjl/wrong-end/s123-picked'
    path: Path
    ruleset: str  # the ruleset it is asked under (an overlay may ask its base's scenarios)
    situation: str
    phase: str
    title: str
    story: str
    story_from: str  # 'scenario', or 'corpus' when told from the judges' stories (tests/stories.yaml)
    source: str
    published: str
    players: tuple[tuple[str, str], ...]  # seat -> name, as the story's table knew them
    key: Key
    ruling: str  # the ruling id the scenario expects
    points: bool  # the key's `pay` part is points, not money
    caveat: m.Caveat | None = None

    @property
    def names(self) -> dict[str, str]:
        return dict(self.players)

    @property
    def caveat_text(self) -> str:
        """The caveat as a judge reads it beside the story; '' when there is none."""
        if self.caveat is None:
            return ""
        kind = ("this ruleset rules otherwise than the published answer" if self.caveat.kind == "contradicted"
                else "the published answer is one writer's opinion, not a rule")
        return f"{kind}. {' '.join(self.caveat.note.split())}"


def key_of(expect: m.Expect, points: bool) -> Key | None:
    """The key a recorded outcome gives, or None when it does not record every part (or names a
    group, such as 'others', where a judge must name seats)."""
    if expect.dead is None or expect.game is None:
        return None
    seats = set(m.SEATS) | {m.BETTOR}
    dead = [str(s) for s in expect.dead]
    if any(s not in seats for s in dead):
        return None
    if points:
        if expect.points is None or any(s not in seats for s in expect.points):
            return None
        pay = tuple(sorted((s, "", int(n)) for s, n in expect.points.items() if n))
    else:
        if expect.payments is None:
            return None
        rows = []
        for p in expect.payments:
            payer, payee, amount = str(p.get("from")), str(p.get("to")), p.get("amount")
            if payer not in seats or payee not in seats or not isinstance(amount, int) or isinstance(amount, bool):
                return None
            rows.append((payer, payee, amount))
        pay = tuple(sorted(rows))
    return Key(tuple(sorted(set(dead), key=_seat_order)), expect.game, pay)


def _seat_order(seat: str) -> int:
    return m.SEATS.index(seat) if seat in m.SEATS else len(m.SEATS)


def key_from_outcome(o: Outcome) -> Key:
    """The same parts as the engine rules them: what a key is checked against."""
    dead = tuple(sorted({p.seat or p.label for p in o.dead}, key=_seat_order))
    if o.ruleset.scoring.kind == "points":
        total: dict[str, int] = {}
        for a in o.awards:
            who = a.party.seat or a.party.label
            total[who] = total.get(who, 0) + (a.points or 0)
        pay = tuple(sorted((s, "", n) for s, n in total.items() if n))
    else:
        pay = tuple(sorted((p.payer.seat or p.payer.label, p.payee.seat or p.payee.label, p.amount)  # type: ignore[misc]
                           for p in o.payments))
    return Key(dead, o.game, pay)


def differences(key: Key, o: Outcome) -> list[str]:
    """How the engine's ruling differs from a key, part by part ([] when they agree)."""
    got = key_from_outcome(o)
    out = []
    for part in PARTS:
        want, have = getattr(key, part), getattr(got, part)
        if want != have:
            out.append(f"{part}: key {_show(part, want)}, engine {_show(part, have)}")
    return out


def _show(part: str, value: Any) -> str:
    if part == "dead":
        return ", ".join(value) or "none"
    if part == "pay":
        return "; ".join(f"{a}->{b} {n}" if b else f"{a} {n:+d}" for a, b, n in value) or "none"
    return str(value)


def scenarios_root() -> Path:
    return data_dir("scenarios")


def item_id(path: Path) -> str:
    try:
        return path.resolve().relative_to(scenarios_root().resolve()).with_suffix("").as_posix()
    except ValueError:
        return path.with_suffix("").as_posix()


def item_of(sc: Scenario, rs: Ruleset) -> Item | None:
    """The quiz item a scenario makes under `rs`, or None: only a published question with its
    outcome recorded is asked."""
    d = sc.data
    if not d.published or d.expect is None or sc.situation not in rs.situations:
        return None
    points = rs.scoring.kind == "points"
    key = key_of(d.expect, points)
    if key is None:
        return None
    story, told_from = " ".join((d.story or "").split()), "scenario"
    if not story:
        told = corpus_stories().get(sc.situation, [])
        if not told:
            return None
        story, told_from = told[sum(map(ord, sc.path.stem)) % len(told)], "corpus"
    return Item(item_id(sc.path), sc.path, rs.id, sc.situation, rs.situations[sc.situation].phase,
                d.title or sc.path.stem, story, told_from, " ".join((d.source or "").split()),
                " ".join(d.published.split()), tuple(sorted(d.players.items())), key, d.expect.ruling, points, d.caveat)


def items(rs: Ruleset, with_caveats: bool = False) -> list[Item]:
    """Every quiz item of a ruleset: its own scenarios', and for an overlay its bases' that it
    still rules the same way (replayed here, as the booklet's worked examples are). A caveated
    item (contradicted by the ruleset, or one writer's opinion) only `with_caveats`."""
    found: dict[str, Item] = {}
    for owner in reversed(rs.chain):
        folder = scenarios_root() / owner
        if not folder.is_dir():
            continue
        for path in scenario_files([folder]):
            try:
                sc = load_file(path, owner)
            except RefereeError:
                continue  # a broken file is `referee check`'s to report, not a quiz's
            if sc.data.ruleset not in (None, owner):
                continue
            it = item_of(sc, rs)
            if it is None or (it.caveat is not None and not with_caveats):
                continue
            if owner != rs.id and not _still_rules(rs, sc):
                continue
            found.setdefault(it.id, it)
    return sorted(found.values(), key=lambda i: i.id)


def _still_rules(rs: Ruleset, sc: Scenario) -> bool:
    try:
        facts, players = facts_of(rs, sc)
        o = run(rs, sc.situation, facts, players)
    except RefereeError:
        return False
    return sc.data.expect is not None and not compare(o, sc.data.expect)


def outcome_of(item: Item, rs: Ruleset) -> Outcome:
    """The engine's ruling for an item: what the judge is shown once she has answered."""
    sc = load_file(item.path, item.ruleset)
    facts, players = facts_of(rs, sc)
    o = run(rs, item.situation, facts, players)
    if sc.tiles is not None:
        sc.tiles.attach(o)
    return o


def key_mismatch(path: Path, o: Outcome) -> tuple[int, list[str]]:
    """(1 when the file is a quiz item under the ruleset it was replayed in, else 0; how its key
    differs from that ruling): what `referee test` adds for every published scenario."""
    try:
        sc = load_file(path)
    except RefereeError:
        return 0, []
    it = item_of(sc, o.ruleset)
    if it is None:
        return 0, []
    return 1, differences(it.key, o)


def check(rs: Ruleset, with_caveats: bool = True) -> list[tuple[Item, list[str]]]:
    """Every item whose key the engine no longer rules: (item, how it differs)."""
    bad = []
    for it in items(rs, with_caveats):
        try:
            diffs = differences(it.key, outcome_of(it, rs))
        except RefereeError as exc:
            diffs = [f"the scenario no longer runs: {exc}"]
        if diffs:
            bad.append((it, diffs))
    return bad


STORIES_FILE = PACKAGE_DIR.parent / "tests" / "stories.yaml"


@lru_cache(maxsize=1)
def corpus_stories(path: Path | None = None) -> dict[str, list[str]]:
    """Situation id -> the judges' own stories for it, from the search's story corpus. Read
    loosely, so a change of its layout (a list of strings, or entries with a `story:` or
    `text:` under each situation) costs the quiz nothing; a missing or broken file is no stories."""
    import yaml

    try:
        data = yaml.safe_load((path or STORIES_FILE).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(sid): texts for sid, entry in data.items() if (texts := _texts(entry))}


def _texts(entry: Any) -> list[str]:
    if isinstance(entry, str):
        return [" ".join(entry.split())] if entry.strip() else []
    if isinstance(entry, list):
        return [t for e in entry for t in _texts(e)]
    if isinstance(entry, dict):
        for field in ("story", "text", "says", "stories"):
            if field in entry:
                return _texts(entry[field])
    return []
