"""The library of rule primitives that compiled hooks name (see registry.py)."""
