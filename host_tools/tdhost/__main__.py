"""`python -m tdhost ...` (after `pip install .`, or `make setup` in the work tree)."""

from tdhost.cli import main

if __name__ == "__main__":
    main()
