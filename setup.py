"""Bundles data/ and templates/ into the wheel as pipeline/bundled/, so `pip install .` (not editable) works anywhere.

Everything else about the package is in pyproject.toml. An editable install
skips the copy: it reads the checkout's own folders (pipeline/base/locations.py).
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PROJECT = Path(__file__).resolve().parent
BUNDLED_FOLDERS = ("data", "templates")


class BuildPyWithProjectFiles(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder in BUNDLED_FOLDERS:
            target = Path(self.build_lib) / "pipeline" / "bundled" / folder
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(PROJECT / folder, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithProjectFiles})
