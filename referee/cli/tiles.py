"""`referee rule` answered with tiles: its card options, and the one call it makes to the card.

Kept apart from `rule` so the card stays a seam there: options typer declares, and `rule_tiles`,
which imports the card code only when tiles were given.
"""
from __future__ import annotations

from typing import Any

import typer

from ..errors import LoadError, RefereeError, UsageError


RULE_PANEL = "The card (answer with tiles)"
RULE_CARD_OPT = typer.Option(None, "--card", metavar="CARD", rich_help_panel=RULE_PANEL,
                             help="The card for --hand or the table options: 'practice' or a card file (default: the ruleset's card:).")
RULE_HAND_OPT = typer.Option(None, "--hand", metavar="TILES", rich_help_panel=RULE_PANEL,
                             help="The declared hand, all 14 tiles: answers 'is the Mah Jongg valid?' and its value from the card.")
RULE_EXPOSED_OPT = typer.Option([], "--exposed", "-x", metavar="GROUP", rich_help_panel=RULE_PANEL,
                                help="An exposure made before Mah Jongg (of the --hand; else of the player said to be dead); repeatable.")
RULE_DISCARDS_OPT = typer.Option(None, "--discards", metavar="TILES", rich_help_panel=RULE_PANEL,
                                 help="Every discard: with --exposed, answers 'is the hand dead?' from the card.")
RULE_OTHERS_OPT = typer.Option([], "--exposed-by-others", metavar="TILES", rich_help_panel=RULE_PANEL,
                               help="The other players' exposures, for 'is the hand dead?'; repeatable.")


def rule_tiles(rs: Any, sc: Any, card: str | None, hand: str | None, exposed: list[str], discards: str | None,
               others: list[str], facts: dict[str, Any]) -> Any:
    """The card's answers for `rule`: facts the tiles settle are added to `facts`; returns the
    FromTiles to attach to the outcome (None when no tiles were given, here or in the answers file)."""
    typed = hand is not None or discards is not None or bool(others) or bool(exposed)
    if not typed:  # the answers file's tiles, read already against --card or the file's or event's card
        return sc.tiles if sc is not None else None
    table = None
    if discards is not None or others or hand is None:
        table = {"exposed": exposed, "discards": discards or "", "exposed_by_others": others}
    return _fill(rs, card or (sc.data.card if sc is not None else None), hand, exposed if hand is not None else [], table, facts)


def default_card(card: str | None) -> str | None:
    """--card, else the event's card (REFEREE_CARD, 'referee log event --card'); None leaves it to the ruleset's."""
    if card:
        return card
    from ..store.context import event_card

    return event_card()


def _fill(rs: Any, card: str | None, hand: str | None, exposed: list[str], table: dict[str, Any] | None,
          facts: dict[str, Any]) -> Any:
    from ..cards.answer import card_facts, card_of, from_tiles

    tiles = from_tiles(card_of(rs, default_card(card)), hand, exposed, table)
    facts.update(tiles.fill(card_facts(rs), facts))
    return tiles


# --- `referee pay --hand`: the value (and Singles and Pairs) from the card ---

PAY_HAND_OPT = typer.Option(None, "--hand", metavar="TILES", help="The winning hand, all 14 tiles: its value comes from the card (with --card).")
PAY_EXPOSED_OPT = typer.Option([], "--exposed", "-x", metavar="GROUP", help="With --hand: a group the winner exposed before Mah Jongg; repeatable.")
PAY_CARD_OPT = typer.Option(None, "--card", metavar="CARD", help="With --hand: 'practice' or a card file (default: the ruleset's card:).")


def pay_from_hand(rs: Any, hand: str | None, exposed: list[str], card: str | None, value: str | None,
                  jokerless: bool, singles_and_pairs: bool) -> tuple[Any, str, bool]:
    """(the card's verdict or None, the value to settle, singles and pairs) for `pay`; a hand
    that makes no line, or a flag the tiles contradict, is refused in one line."""
    if hand is None:
        if exposed or card:
            raise UsageError("--exposed and --card go with --hand TILES")
        if value is None:
            raise UsageError("give the hand's card value with --value VALUE, or the tiles with --hand TILES --card CARD")
        return None, value, singles_and_pairs
    from ..cards.answer import card_of
    from ..cards.verify import read_hand, verify

    the_hand = read_hand(hand, exposed)
    idx = card_of(rs, default_card(card))
    verdict = verify(idx, the_hand)
    if verdict.best is None:
        near = verdict.nearest[0] if verdict.nearest else None
        why = f"; nearest {near.line.id}: {near.reasons[0]}" if near and near.reasons else ""
        raise UsageError(f"'{hand}' makes no line of card {idx.card.id}, so there is nothing to pay{why} "
                         "('referee hand verify' for more; 'referee rule mahjong-in-error' for the ruling)")
    line = verdict.best.line
    from ..ruling.answers import whole

    if value is not None and whole("--value", value) != line.value:
        raise UsageError(f"--value {value} contradicts the card: {line.id} is worth {line.value}")
    if jokerless and not the_hand.jokerless:
        raise UsageError(f"--jokerless, but the hand holds {the_hand.jokers} joker{'s' if the_hand.jokers != 1 else ''}")
    return verdict, str(line.value), singles_and_pairs or not line.jokerless_bonus


def pay_card_text(verdict: Any, card_id: str) -> str:
    line = verdict.best.line
    shown = f" (exposed: {', '.join(e.text for e in verdict.hand.exposures)})" if verdict.hand.exposures else ""
    more = "; jokerless: add --jokerless if the winner announced it" if verdict.hand.jokerless and line.jokerless_bonus else ""
    return f"Card {card_id}: {verdict.hand.text}{shown} is line {line.id} ({line.section}, {line.mark}), worth {line.value}{more}"


def card_id(rs: Any, card: str | None) -> str:
    from ..cards.answer import card_of

    return card_of(rs, default_card(card)).card.id  # loaded already: the store keeps it in memory


def hand_json(verdict: Any) -> dict[str, Any]:
    from ..cards.report import hand_json as document

    return document(verdict)


# --- answering with tiles at the prompt: `tiles` instead of an answer ---

PROMPT: dict[str, Any] = {}  # set by `rule`: the ruleset ("rs"), --card ("card"), the tiles given so far ("tiles")


def offer_tiles(rs: Any, card: str | None, tiles: Any) -> None:
    """Before the questions: what `tiles` at a prompt reads the card with, and tiles given already."""
    PROMPT.clear()
    PROMPT.update(rs=rs, card=card, tiles=tiles)


def known_from_tiles(step: Any) -> Any:
    """The answer the tiles entered at an earlier prompt give this question, or None."""
    tiles, kind = PROMPT.get("tiles"), getattr(step.definition, "card", None)
    value = tiles.value_of(kind) if tiles is not None and kind else None
    if value is not None:
        _answered(tiles, step.fact)
    return value


def _answered(tiles: Any, fact: str) -> None:
    """The card answered this fact at the prompt: the verdict then carries its Card: section."""
    if fact not in tiles.answered:
        tiles.answered = (*tiles.answered, fact)


def refused_by_tiles(step: Any, answer: Any) -> str | None:
    """Why the tiles entered so far refuse an answer that claims what the card says, or None."""
    tiles = PROMPT.get("tiles")
    if tiles is None or not getattr(step.definition, "card_claims", None):
        return None
    why = tiles.refuses(step.definition, answer)
    return f"{step.fact}={answer} {why}" if why else None


def entered_tiles() -> Any:
    return PROMPT.get("tiles")


def _card_at_prompt(ask_line: Any, say: Any) -> Any:
    """The card `tiles` reads: --card, the event's, the ruleset's; with none set, the judge
    chooses one here rather than quitting to start again (None: she answers herself)."""
    from ..cards.answer import card_of
    from ..cards.store import load

    try:
        return card_of(PROMPT.get("rs"), default_card(PROMPT.get("card")))
    except UsageError as exc:
        if not exc.message.startswith("no card"):
            raise
    say("No card is set for this ruling: 'practice' is the invented practice card, or give your card's file.", "yellow")
    while True:
        chosen = ask_line("Which card? practice, a file, or Enter to answer yourself:").strip()
        if not chosen:
            return None
        try:
            card = load(chosen)
        except RefereeError as exc:  # no such card, or one with problems: say the first, ask again
            say(str(exc.problems[0]) if isinstance(exc, LoadError) else exc.message, "red")
            continue
        PROMPT["card"] = chosen  # the rest of this ruling reads the same card
        say(f"Card {chosen} for this ruling; REFEREE_CARD={chosen} (or 'referee log event --card') sets it for "
            "every ruling.", "dim")
        return card


def ask_tiles(definition: Any, ask_line: Any, say: Any, fact: str = "") -> Any:
    """Ask for the tiles a card question needs, check them against the card, say what it found;
    the answer, or None (asked again) when the tiles are refused or do not settle it."""
    from ..cards.answer import from_tiles

    try:
        card = _card_at_prompt(ask_line, say)
        if card is None:
            return None
        if definition.card in ("dead", "alive"):
            exposed = ask_line("The player's exposures, e.g. 22J2B 444C (Enter for none)").split()
            discards = ask_line("Every tile in the discards, e.g. 6D 6D 9B J (Enter for none)")
            others = ask_line("The other players' exposures, jokers included (Enter for none)")
            tiles = from_tiles(card, None, None, {"exposed": exposed, "discards": discards,
                                                  "exposed_by_others": [others] if others.strip() else []})
        else:
            hand = ask_line("The declared hand, all 14 tiles with its exposures, e.g. FF 2033B 3333C 3333D")
            exposed = ask_line("Groups exposed before Mah Jongg, e.g. 3333C (Enter for none)").split()
            tiles = from_tiles(card, hand, exposed, None)
    except UsageError as exc:
        say(exc.message, "red")
        return None
    for line in tiles.evidence():
        say(line, "")
    value = tiles.value_of(definition.card)
    if value is None:
        say("The card does not settle this question; answer it yourself.", "yellow")
        return None
    PROMPT["tiles"] = tiles
    if fact:
        _answered(tiles, fact)
    return value
