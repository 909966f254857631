from __future__ import annotations

import enum
from dataclasses import dataclass, field

from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Phase(str, enum.Enum):
    SUBMITTED = "submitted"
    WORKING = "working"
    DONE = "completed"


@dataclass
class Delivery:
    parcel: str
    partner: str
    remote_id: str
    phase: Phase = Phase.SUBMITTED
    notes: list[str] = field(default_factory=list)


class Base(DeclarativeBase):
    pass


class Shipment(Base):
    __tablename__ = "shipment"
    parcel: Mapped[str] = mapped_column(String(40), primary_key=True)
    partner: Mapped[str] = mapped_column(String(40))
    remote_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20))
