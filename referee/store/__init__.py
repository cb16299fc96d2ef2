"""The rulings log: every ruling a judge records, kept in SQLite (a file) or PostgreSQL (a URL).

The interface the command line (and, later, the judges' web page) calls:

- `context.log_context(...)`: whether a `rule` should be recorded, and where; no database
  is touched, so `referee rule` without logging stays fast.
- `rulings.RulingsLog.open(path)`: the log itself (add, find, get, withdraw, players, merge).
- `record.from_outcome(...)`: a ruling as it is stored, built from the engine's outcome.
- `transfer` (export/import), `snapshot` (the rules as they were), `replay`.
- `signins`: the judges' sign-ins at a venue (`referee serve`), kept beside the rulings.

- `backend` (the protocol and the errors both databases raise), `sqlite` and `postgres` (one
  each), `connect` (which of them an address means; above both).

This package imports nothing heavy itself; `sqlite3` is imported by `db` only, the PostgreSQL
driver by `postgres` only. It imports `rules` and `ruling` (a ruling as stored), never a skin.
"""
