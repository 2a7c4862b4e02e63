"""The play layer: tables (local, replay, online) and flows (what comes next), no Qt.

See README.md beside this file."""
