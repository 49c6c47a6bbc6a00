"""The command line, ``fastsweep <command>``: ``main`` builds the parser and dispatches;
one module per command group (``sweep``, ``hard``, ``advise``), ``common`` for what they
share."""
