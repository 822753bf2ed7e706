"""The conformance-vector runner (``shared/conformance/FORMAT.md``, format 1)."""

from .runner import CaseResult, run_case, run_paths

__all__ = ["CaseResult", "run_case", "run_paths"]
