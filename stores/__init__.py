"""Persistence and computation with no model calls: SQL, vectors, BM25, encoders, mining math."""
