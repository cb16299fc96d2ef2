"""The rulings log: every ruling a judge records, kept in SQLite.

The interface the command line (and, later, the judges' web page) calls:

- `context.log_context(...)`: whether a `rule` should be recorded, and where; no database
  is touched, so `referee rule` without logging stays fast.
- `rulings.RulingsLog.open(path)`: the log itself (add, find, get, withdraw, players, merge).
- `record.from_outcome(...)`: a ruling as it is stored, built from the engine's outcome.
- `transfer` (export/import), `snapshot` (the rules as they were), `replay`.
- `signins`: the judges' sign-ins at a venue (`referee serve`), kept beside the rulings.

This package imports nothing heavy itself; `sqlite3` is imported by `db` only.
"""
