"""Data sets: the map, cards and set-up of a game as TOML files, loaded and checked.

The packaged default is "England 1455" (``data/england1455/``); a GM can point the
loader at a folder of their own files in the same format (``docs/data-format.md``).
"""

from .dataset import DataSet, Faction, Setup
from .dump import dump_dataset
from .loader import default_folder, load_dataset, validate_folder
from .problems import DataError, DataProblem

__all__ = [
    "DataError",
    "DataProblem",
    "DataSet",
    "Faction",
    "Setup",
    "default_folder",
    "dump_dataset",
    "load_dataset",
    "validate_folder",
]
