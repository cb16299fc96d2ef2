"""`referee rule` answered with tiles: its card options, and the one call it makes to the card.

Kept apart from `rule` so the card stays a seam there: options typer declares, and `rule_tiles`,
which imports the card code only when tiles were given.
"""
from __future__ import annotations

from typing import Any

import typer


RULE_PANEL = "The card (answer with tiles)"
RULE_CARD_OPT = typer.Option(None, "--card", metavar="CARD", rich_help_panel=RULE_PANEL,
                             help="The card for --hand or the table options: 'practice' or a card file (default: the ruleset's card:).")
RULE_HAND_OPT = typer.Option(None, "--hand", metavar="TILES", rich_help_panel=RULE_PANEL,
                             help="The declared hand, all 14 tiles: answers 'is the Mah Jongg valid?' and its value from the card.")
RULE_EXPOSED_OPT = typer.Option([], "--exposed", "-x", metavar="GROUP", rich_help_panel=RULE_PANEL,
                                help="An exposure made before Mah Jongg (of the --hand; else of the player said to be dead); repeatable.")
RULE_DISCARDS_OPT = typer.Option(None, "--discards", metavar="TILES", rich_help_panel=RULE_PANEL,
                                 help="Every discard: with --exposed, answers 'is she dead?' from the card.")
RULE_OTHERS_OPT = typer.Option([], "--exposed-by-others", metavar="TILES", rich_help_panel=RULE_PANEL,
                               help="The other players' exposures, for 'is she dead?'; repeatable.")


def rule_tiles(rs: Any, sc: Any, card: str | None, hand: str | None, exposed: list[str], discards: str | None,
               others: list[str], facts: dict[str, Any]) -> Any:
    """The card's answers for `rule`: facts the tiles settle are added to `facts`; returns the
    FromTiles to attach to the outcome (None when no tiles were given, here or in the answers file)."""
    typed = hand is not None or discards is not None or bool(others) or bool(exposed)
    if not typed:
        if sc is not None and sc.tiles is not None and card:
            data = sc.data
            hand, exposed = (data.hand.tiles, list(data.hand.exposed)) if data.hand else (None, [])
            table = data.table.model_dump() if data.table else None
            return _fill(rs, card, hand, exposed, table, facts)
        return sc.tiles if sc is not None else None
    table = None
    if discards is not None or others or hand is None:
        table = {"exposed": exposed, "discards": discards or "", "exposed_by_others": others}
    return _fill(rs, card or (sc.data.card if sc is not None else None), hand, exposed if hand is not None else [], table, facts)


def _fill(rs: Any, card: str | None, hand: str | None, exposed: list[str], table: dict[str, Any] | None,
          facts: dict[str, Any]) -> Any:
    from ..cards.answer import card_facts, card_of, from_tiles

    tiles = from_tiles(card_of(rs, card), hand, exposed, table)
    facts.update(tiles.fill(card_facts(rs), facts))
    return tiles
