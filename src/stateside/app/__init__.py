"""Qt application shell: main window, game chooser, menus, settings, save/load."""
