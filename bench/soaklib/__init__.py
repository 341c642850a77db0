"""The parts of bench/soak.py: the client (client.py), the serve process it kills and restarts
(server.py), the book of what was acknowledged (ledger.py), the workload's threads
(workload.py), the streams reader (streams.py) and the final checks (checks.py)."""
