"""Prompt constants, one module per model role. No logic lives here."""
