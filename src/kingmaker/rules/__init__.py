"""The pure rules core: standard library only, no I/O, clock or global randomness."""
