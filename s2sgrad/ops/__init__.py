"""The user-facing op functions: thin wrappers that validate, convert and record."""
