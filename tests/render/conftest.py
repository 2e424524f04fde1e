import sys
from pathlib import Path

# The hand-built base-game IR lives beside the board tests; the render tests draw it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "board"))
