"""Hand evaluation and replay service for Four Color Cards and Chắn."""

__version__ = "0.1.0"
