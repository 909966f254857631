import enum
from dataclasses import dataclass


class Stage(str, enum.Enum):
    SUBMITTED = "submitted"
    WORKING = "working"


@dataclass
class Job:
    partner: str
    remote_id: str
    stage: Stage = Stage.SUBMITTED
