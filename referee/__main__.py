"""`python -m referee` and the `referee` command.

The entry point lives here, not in referee.cli, so that Ctrl-C while typer, rich and pydantic
are still loading ends with one line and exit 130, like Ctrl-C at any later moment.
"""
import gc
import sys

EXIT_INTERRUPTED = 130


def run() -> None:
    # Start-up (imports, then typer parsing the command line) allocates a great many objects
    # and frees almost none, so the cyclic collector would only walk them again and again.
    # Every command switches it back on as it begins (`cli.guarded`), those objects frozen
    # out of its sight.
    gc.disable()
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("\nreferee: interrupted\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    try:
        main()
    finally:
        gc.enable()


if __name__ == "__main__":
    run()
