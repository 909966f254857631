"""The parts of a partner's agent card that its contract is made of."""

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")
SHAPE_KEYS = ("skills", "defaultInputModes", "defaultOutputModes")
