"""`python -m tdhost ...` (after `pip install .`, or `make setup` in the work tree)."""

from tdhost.cli.app import main

if __name__ == "__main__":
    main()
