"""Shared plumbing for talking to partner agents."""
