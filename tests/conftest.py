import os

# Qt tests run without a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
