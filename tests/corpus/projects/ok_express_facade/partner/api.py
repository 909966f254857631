"""What the rest of the service may use of partner/ (the modules behind it move around)."""

from partner.fetching import partner_profile

__all__ = ["partner_profile"]
