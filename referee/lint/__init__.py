"""What `referee check` says of a ruleset a person wrote, beyond its loading cleanly.

`checks.lint` finds what validation cannot: unreachable leaves, a Game line that contradicts the
dead hands, a ruling citing a source it does not name, a situation search cannot find, and
(`sheets`) a number that contradicts the event sheet it cites, or a sheet rule with no entry in
the event's coverage map, or an inherited ruling that the ruleset's own source rules otherwise on
(a source's `contradicts:` list) still ruled as the base rules it. `cache` keeps its findings between runs; `schema` writes the JSON
Schemas that editors check the YAML files against (kept in referee/schema/, where every file's
header points).

It sits above the core it checks: it imports `rules`, `ruling` (the words of an outcome),
`search` and `cards`. Only the command line calls it; nothing of the core may import it.
"""
