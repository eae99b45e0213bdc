"""tdhost: the Table Clock TD host (the league, the live night, the links to the boxes, the
web console). Where to start reading: docs/architecture.md.
"""

__version__ = "0.1.0"
