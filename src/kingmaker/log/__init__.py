"""The game log: envelopes around events, their schema versions, and the one fold that
turns a log into positions (with the GM's undo, deadlines and who has ordered)."""

from .envelope import SCHEMA_VERSION, Envelope, LogFormatError, envelope_from_data, envelope_to_data
from .fold import Deadline, Fold, Position, Timeline, Unreachable, fold

__all__ = [
    "SCHEMA_VERSION",
    "Deadline",
    "Envelope",
    "Fold",
    "LogFormatError",
    "Position",
    "Timeline",
    "Unreachable",
    "envelope_from_data",
    "envelope_to_data",
    "fold",
]
