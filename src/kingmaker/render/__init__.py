"""Reports and pictures of a game, as pure functions of its state (no I/O, no Rich)."""
