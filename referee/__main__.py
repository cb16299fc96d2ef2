"""`python -m referee` and the `referee` command.

The entry point lives here, not in referee.cli, so that Ctrl-C while typer, rich and pydantic
are still loading ends with one line and exit 130, like Ctrl-C at any later moment.
"""
import sys

EXIT_INTERRUPTED = 130


def run() -> None:
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("\nreferee: interrupted\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    main()


if __name__ == "__main__":
    run()
