"""Problems found in a data set: each names its file, a key path and a reason.

The loader never stops at the first problem: it collects every one it can find and
raises them together as a :class:`DataError`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class DataProblem:
    """One problem in a data file.

    >>> str(DataProblem("places.toml", "london.capacity", "expected an integer"))
    'places.toml: london.capacity: expected an integer'
    """

    file: str
    key_path: str
    reason: str

    def __str__(self) -> str:
        if self.key_path:
            return f"{self.file}: {self.key_path}: {self.reason}"
        return f"{self.file}: {self.reason}"


class DataError(ValueError):
    """A data set that does not load; ``problems`` lists every problem found."""

    def __init__(self, problems: list[DataProblem] | tuple[DataProblem, ...]) -> None:
        self.problems: tuple[DataProblem, ...] = tuple(problems)
        super().__init__(self._message())

    def _message(self) -> str:
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in the data set"
        return "\n".join([head + ":", *(f"  {p}" for p in self.problems)])

    def __str__(self) -> str:
        return self._message()
