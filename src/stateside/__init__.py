"""Stateside: board games about the United States on one shared map of the 50 states."""

__version__ = "0.1.0"
