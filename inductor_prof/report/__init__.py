"""Rendering of analysed run tables: terminal (rich), CSV and JSON."""
