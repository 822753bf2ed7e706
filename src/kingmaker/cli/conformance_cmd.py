"""``kingmaker conformance PATH...``: run conformance vectors."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import Progress


def register(app: typer.Typer) -> None:
    @app.command("conformance")
    def conformance(
        paths: list[Path] = typer.Argument(..., help="Case files or folders of *.yaml cases."),
        skip: Path | None = typer.Option(
            None, "--skip", help="A file listing case ids (one per line, # comments) to skip."
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts."),
    ) -> None:
        """Run conformance vectors: one line per failing case, then `N passed, M failed`.

        Example: kingmaker conformance conformance/cases tests/vectors
        """
        from kingmaker.conformance.runner import case_files, run_case

        err = Console(stderr=True)
        missing = [p for p in paths if not p.exists()]
        if missing:
            err.print(f"[red]no such file or folder: {', '.join(map(str, missing))}[/red]")
            raise typer.Exit(2)
        skipped: set[str] = set()
        if skip is not None:
            try:
                lines = skip.read_text(encoding="utf-8").splitlines()
            except OSError as e:
                err.print(f"[red]cannot read skip file {skip}: {e.strerror}[/red]")
                raise typer.Exit(2) from None
            skipped = {ln.split("#")[0].strip() for ln in lines} - {""}
        files = case_files(paths)
        passed = failed = skipped_n = 0
        seen: dict[str, str] = {}
        failures: list[str] = []
        with Progress(console=err, transient=True, disable=quiet or not err.is_terminal) as progress:
            task = progress.add_task("conformance", total=len(files))
            for f in files:
                r = run_case(f)
                progress.advance(task)
                if r.case_id in skipped:
                    skipped_n += 1
                    continue
                if r.passed and r.case_id in seen:
                    failures.append(
                        f"FAIL {r.case_id} ({f}) case: expected a unique case id; got also {seen[r.case_id]}"
                    )
                    failed += 1
                    continue
                seen.setdefault(r.case_id, str(f))
                if r.passed:
                    passed += 1
                else:
                    failed += 1
                    failures.append(r.line())
        if as_json:
            import json

            typer.echo(
                json.dumps(
                    {"passed": passed, "failed": failed, "skipped": skipped_n, "failures": failures}, indent=2
                )
            )
            raise typer.Exit(1 if failed else 0)
        for line in failures:
            typer.echo(line)
        tail = f", {skipped_n} skipped" if skipped_n else ""
        typer.echo(f"{passed} passed, {failed} failed{tail}")
        raise typer.Exit(1 if failed else 0)
