"""Entry point of the PyInstaller binary: the very same `stateside` command as the
installed app (the window, --screenshot, borders, selfplay and the games' commands)."""
from stateside.__main__ import run

if __name__ == "__main__":
    run()
