"""The play layer: tables and flows between the engine and the Qt modes (no Qt here)."""
