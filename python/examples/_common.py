"""Shared by the examples: the repository's examples/ folder and imports."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples")
sys.path.insert(0, os.path.join(HERE, ".."))  # the package, from a checkout
