"""Records <-> bytes (.fief, msgpack), replay, seek, verify and text export."""
