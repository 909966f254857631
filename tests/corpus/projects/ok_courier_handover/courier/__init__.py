"""courier: hands parcels to partner couriers' agents and keeps a delivery per parcel.

A partner's published profile (its agent card) is checked for its signature before
the sweep talks to the partner, as an identity check only: the state written back
to each delivery, dataclass deliveries and database shipments alike, is what the
partner's own tasks/get answers for it. The push endpoint checks a push token and
copies the pushed task's own state.
"""
