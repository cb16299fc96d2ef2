"""The rules: what a ruleset may say, and how it is read from its YAML files.

A ruleset is a folder (`ruleset.yaml`, `facts.yaml`, `situations/*.yaml`, optionally extending
another). `loader.load` finds it (`folders`); on a miss in the cache it reads each file with the
place of every value (`files`, `yamlload`), validates it against the model (`model`) and merges
overlays (`reading`), and hands back a `ruleset.Ruleset`. `cache` keeps a validated ruleset
between runs, as models and as plain records (`records`, the same fields without pydantic), so a
warm ruling neither parses YAML nor imports PyYAML, and builds no model class; it keeps an
answers file validated the same way, and `shelf` the shipped scenarios a folder to an entry.
`memo.keep` is the one bound on the memos a process keeps, here and in the layers above.

Called by everything that rules, prints, checks or serves. It must never import `ruling`,
`search`, `lint`, `cards`, `store`, `handouts`, `diff`, `quiz`, `house`, `web` or `cli`: the
rules are read the same whatever later makes use of them. Of referee's top level it uses only
`errors`.
"""
