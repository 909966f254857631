"""Asks the tax partner to void an invoice."""

from peerlink.session import connect


async def void(invoice_id: str, tax_url: str, request):
    partner = await connect(tax_url)
    async for event in partner.send_message(request):  # expect: AC103
        return invoice_id, event
    return invoice_id, None
