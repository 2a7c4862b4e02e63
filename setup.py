"""Finds the packages for pyproject.toml (which holds everything else): every package
under src/, and the top-level resources/ folder shipped as stateside.resources. A
pyproject table cannot say both, so this one line of code does."""
from setuptools import find_packages, setup

setup(packages=find_packages("src") + ["stateside.resources"])
