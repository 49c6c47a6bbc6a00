"""Pictures: the sweep's publication figures (``figures``: score, paired differences,
win rate, from a sweep folder), the board and its animated replay (``pictures``), and
the house style they share (``style``: sizes, colours, line styles, caption wrapping)."""
