"""The ruling: facts in, the next question or the ruling out, and the words it is said in.

`engine.advance` walks a situation's decision tree with the answers known so far and returns
either the next `Question` or an `outcome.Outcome` (dead hands, the game, the payments worked by
`scoring`, the tiles, the rules it rests on). `answers` reads a judge's typed answer into a fact's
value (seats, counts, names); `targets` names the leaves; `render` and `deadtext` put the outcome
into words a judge reads aloud; `scenarios` replays recorded answers files against the engine.
A ruleset is read by attribute and told apart by the kinds of `rules.records` (a question node,
a ruling node, a goto), never by the model classes: a ruling from the cache holds records, and
builds no model class (tests/test_startup.py holds that).

Called by the skins (`cli`, `web`), the handouts, the quiz, the store's replay and the lint. It
imports `rules` and `cards` (a hand answered with tiles) and nothing else of referee's beyond
`errors` and `safe`: never `search`, `lint`, `store`, `handouts`, `web` or `cli`.
"""
