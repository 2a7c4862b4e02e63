"""Entry point of the PyInstaller binary: the very same `stateside` command as the
installed app (the window, --screenshot, borders, selfplay and the games' commands)."""
import sys

from stateside.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
