"""The table box: dealer controls, screen fields, seat ring, main loop and hardware adapters."""
