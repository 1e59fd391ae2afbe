"""The companion: the table's brain. Imports neither Flask nor any hardware library."""
