"""What-ifs: the position's numbers once a hidden cell shows a value, or is a mine.

``base`` (outcome rows, what-if log weights, the frontier of a clue set), ``ded`` (what-if
deductions re-counted on the components an outcome touches), ``joint`` (a cell's outcome
row and deductions in one pass: the ``risk`` agent's), ``iso`` (isolated cells' classes),
``check`` (every route against the others, for the tests only).
"""
