"""The advisor: an agent's advice on a position of a real game (``advice``), the manual
game that plays a registered agent through a person (``manual``), the position's text
form (``position_text``) and the heat map of its mine probabilities (``heatmap``)."""
