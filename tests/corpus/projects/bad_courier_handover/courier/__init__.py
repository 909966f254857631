"""courier: hands parcels to partner couriers' agents and keeps a delivery per parcel.

Defect (courier/sweep.py): after a partner's published profile (its agent card) passes
its signature check, the sweep moves that partner's waiting deliveries on, the
dataclass deliveries and the database shipments alike, without asking the partner
what it is doing with any of them. The check is a PyJWT or a jwcrypto helper in
courier/signatures.py. The push endpoint checks a push token, not a profile, and
copies the pushed task's own state: that part is right.
"""
