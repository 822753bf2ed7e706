"""The ``kingmaker`` command line (Typer and Rich): a thin layer over the service."""
