"""What every game shares: YAML loading with marks, schema checks, problems, provenance."""
