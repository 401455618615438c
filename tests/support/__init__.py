"""What the tests share: free ports, real processes, the private Redis, simulated logs, search positions, the
deploy files. Test modules and conftest.py files import their helpers from here, never from one another
(tests/test_layout.py holds the tree to that)."""
