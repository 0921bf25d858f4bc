"""The conform runner: pytest plugin, isolation worker, expectations, reports and repro bundles."""
