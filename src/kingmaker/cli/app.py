"""The ``kingmaker`` console script.

Each group of commands lives in its own module and is mounted here.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="kingmaker",
    help="Kingmaker game-master engine: rules, conformance vectors, data sets and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


_mounted = False


def command_app() -> typer.Typer:
    """The ``kingmaker`` command with every sub-command mounted (for tests that invoke it
    in-process with Typer's runner)."""
    _mount()
    return app


def _mount() -> None:
    global _mounted
    if _mounted:
        return
    _mounted = True
    from . import (
        combat_cmds,
        conformance_cmd,
        data_cmd,
        demo_cmd,
        draws_cmd,
        game_cmds,
        map_cmd,
        notify_cmds,
        orders_cmd,
        report_cmd,
        selfplay_cmd,
        serve_cmd,
        transfer_cmd,
        units_cmd,
    )

    conformance_cmd.register(app)
    data_cmd.register(app)
    demo_cmd.register(app)
    draws_cmd.register(app)
    transfer_cmd.register(app)
    game_cmds.register(app)
    orders_cmd.register(app)
    units_cmd.register(app)
    combat_cmds.register(app)
    report_cmd.register(app)
    notify_cmds.register(app)
    map_cmd.register(app)
    selfplay_cmd.register(app)
    serve_cmd.register(app)


def main() -> None:
    """Entry point of the console script. An unexpected error ends with one line and
    exit code 70, never a traceback (set KINGMAKER_DEBUG=1 to see it)."""
    import os
    import sys

    _mount()
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:
        if os.environ.get("KINGMAKER_DEBUG"):
            raise
        print(f"kingmaker: internal error: {type(e).__name__}: {e} (set KINGMAKER_DEBUG=1 for details)", file=sys.stderr)
        sys.exit(70)


if __name__ == "__main__":
    main()
