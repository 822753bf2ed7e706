"""kingmaker: a game-master engine for Kingmaker played by forum."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
