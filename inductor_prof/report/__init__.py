"""Rendering of analysed run tables: terminal (rich), CSV and JSON, and a self-contained HTML page."""
