"""The classroom kit's computations: self-check quizzes whose answers the engine computes, and a
class experiment's tallies pooled against the exact value.

A layer beside :mod:`rumino.compare` and :mod:`rumino.pages`: it reads the engine, the odds and the
variants, and nothing above it imports it but the widgets, the CLI and the book.
"""
