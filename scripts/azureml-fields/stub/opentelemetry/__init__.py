"""A stand-in for OpenTelemetry, which Debian does not package (see trace.py)."""
