"""Numbers the published reports give, that the studies redo (scripts/studies/): their
figures draw them beside fastsweep's and the results pages' tables quote them.

>>> RELE["linalg"][30][RELE_DENSITIES.index(0.3)], RELE_TABLE[(30, 0.3)]
(86.5, (86.5, 92.2))
"""

# Rele, Raman, Eng, Patel (Rutgers 2019), Table 1: flag rate (%) at densities
# 0.1 / 0.2 / 0.3 / 0.5 on d x d boards (about 100 games a cell)
RELE = {
    "basic": {10: (96.5, 86.8, 72.8, 54.0), 20: (99.0, 92.9, 78.1, 55.1),
              30: (99.5, 95.7, 79.8, 55.7), 40: (99.7, 96.5, 81.1, 57.4)},
    "linalg": {10: (97.4, 92.6, 80.6, 59.1), 20: (99.3, 96.8, 85.5, 58.5),
               30: (99.6, 98.4, 86.5, 58.9), 40: (99.7, 99.0, 88.4, 61.2)},
    "linalg-bruteforce": {10: (97.4, 94.3, 87.2, 70.5), 20: (99.3, 97.9, 91.4, 73.9),
                          30: (99.6, 99.2, 92.2, 75.1), 40: (99.7, 99.4, 93.2, 77.9)},
}
RELE_DENSITIES = (0.1, 0.2, 0.3, 0.5)
# their table as scripts/studies/report_table.py compares it: (dim, density) ->
# (linear algebra, linear algebra + brute force), at densities 0.2, 0.3 and 0.5
RELE_TABLE = {(d, dens): (RELE["linalg"][d][j], RELE["linalg-bruteforce"][d][j])
              for d in (10, 20, 30, 40) for j, dens in enumerate(RELE_DENSITIES) if dens > 0.1}
# their baseline's seconds per game: (side, density) -> seconds
RELE_SECONDS = {(30, 0.2): 0.50, (30, 0.3): 1.27, (50, 0.5): 13.8}
# Dhurandhar: games solved of 50 (classic rules, first cell (0,0), no mine total)
DHURANDHAR = {(9, 10): 5, (16, 40): 3, (30, 185): 1}
