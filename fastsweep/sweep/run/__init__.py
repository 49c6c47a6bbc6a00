"""Where and how a sweep's chunks are played: ``backends`` (in this process, a local
process pool or a Dask cluster; ``dask_local``: the loopback cluster of worker
subprocesses), ``execute`` (the workers' side and the parent's scheduling loop),
``progress`` (a bar or plain lines), ``postmortem`` (which member and game killed a
worker); and ``tasks``, the studies' independent tasks on the same backends."""
