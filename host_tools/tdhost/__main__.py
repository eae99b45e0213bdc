"""`python -m tdhost ...` (with host_tools/ on sys.path, or after `pip install -e .`)."""

from tdhost.cli import main

if __name__ == "__main__":
    main()
