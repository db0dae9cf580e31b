"""fiefdom's rules layer: pure Python, no I/O, no drawing, no serialization."""
