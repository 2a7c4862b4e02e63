"""The engine layer (pure Python, no Qt): the protocol every game's rules implement,
the match layer over it, and the real-time clock driver. See protocol.py."""
