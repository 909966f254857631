"""How a claim is put to the assessor."""


def summary(claim: dict) -> str:
    return f"Claim {claim['id']}: {claim['amount']} {claim['currency']} for {claim['reason']}"
