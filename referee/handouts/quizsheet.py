"""The quiz sheet: N stories to answer on paper, then the answer key on pages of its own, for a
training evening without devices. The stories are drawn as `referee quiz` draws them."""
from __future__ import annotations

from dataclasses import dataclass

from ..rules.loader import Ruleset
from ..quiz.draw import draw, topic_filter
from ..quiz.items import Item, items, outcome_of
from ..quiz.marking import GAME_CHOICES, said
from ..ruling.render import rule_keys
from ..errors import UsageError


@dataclass(frozen=True)
class Question:
    n: int
    item: Item
    caveat: str  # '' unless the story is asked with its caveat
    dead: str  # the key, in words
    game: str
    pay: str
    ruling: str  # 'MJE-6'
    title: str  # the situation's title: named in the key only, the judge names it herself
    text: str  # what the ruling says
    rule: str  # the source keys it rests on


def questions(rs: Ruleset, n: int, seed: int, topic: str | None = None, with_caveats: bool = False) -> list[Question]:
    pool = topic_filter(rs, topic, items(rs, with_caveats))
    if not pool:
        raise UsageError(f"ruleset {rs.id} has no published question with a recorded outcome for a quiz")
    out = []
    for i, item in enumerate(draw(pool, n, seed), 1):
        o = outcome_of(item, rs)
        k = item.key
        out.append(Question(i, item, item.caveat_text, said("dead", k.dead, item), said("game", k.game, item),
                            said("pay", k.pay, item), o.ruling.id, rs.situations[item.situation].title,
                            o.text, ", ".join(rule_keys(o))))
    return out


GAMES = list(GAME_CHOICES)
