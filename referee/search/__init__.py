"""Finding the situation: a judge's typed story to the situations it may mean, best first.

`rank.search` scores every situation of a ruleset against the story's terms (`words` holds the
game's words: spellings, synonyms, the stems a judge types) and says when the first two are too
close to pick between (`near_tie`), so Enter never rules a situation the judge did not mean.

Called by `referee rule` / `search` (cli), the phone page (web) and the lint, which checks that
every situation can be found. It reads rulesets (`rules`) and imports nothing else of referee's:
never `ruling`, `lint`, `store`, `web` or `cli`.
"""
