"""The game log: envelopes around events, their schema versions, and the fold that
turns a log into a state (with the GM's undo)."""

from .envelope import SCHEMA_VERSION, Envelope, LogFormatError, envelope_from_data, envelope_to_data
from .fold import effective, fold

__all__ = [
    "SCHEMA_VERSION",
    "Envelope",
    "LogFormatError",
    "effective",
    "envelope_from_data",
    "envelope_to_data",
    "fold",
]
