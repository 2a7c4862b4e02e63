"""Data files of Stateside (maps, facts, rules overrides, decks, tiles), shipped as
the package stateside.resources; read them with stateside.resources_path()."""
