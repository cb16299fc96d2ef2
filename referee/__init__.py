"""referee: the rulings assistant for American Mah Jongg (NMJL-style)."""

__version__ = "0.1.0"
