"""Data files of Stateside (map, facts, border corrections, decks, tiles, icons), shipped
as the package stateside.resources; find them with stateside.paths.resource()."""
