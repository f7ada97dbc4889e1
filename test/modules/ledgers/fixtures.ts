import type { TestServer } from '../../support/server.js';

/** A LOYALTY_PROGRAM campaign (cards start at `points`) and one card of it, through the API. */
export async function loyaltyCard(
  server: TestServer,
  name: string,
  code: string,
  points = 0,
  loyaltyCard: Record<string, unknown> = {},
) {
  const campaign = await server.request('POST', '/v1/campaigns', {
    body: {
      name,
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points, ...loyaltyCard } },
    },
  });
  if (campaign.status !== 200) throw new Error(`campaign: ${campaign.text}`);
  const card = await server.request('POST', `/v1/campaigns/${campaign.body.id}/vouchers`, { body: { code } });
  if (card.status !== 200) throw new Error(`card: ${card.text}`);
  return { campaign: campaign.body as { id: string; name: string }, card: card.body as { id: string; code: string } };
}

/** A GIFT_VOUCHERS campaign of `amount` and one gift card of it. */
export async function giftCard(server: TestServer, name: string, code: string, amount: number) {
  const campaign = await server.request('POST', '/v1/campaigns', {
    body: { name, campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount } } },
  });
  if (campaign.status !== 200) throw new Error(`campaign: ${campaign.text}`);
  const card = await server.request('POST', `/v1/campaigns/${campaign.body.id}/vouchers`, { body: { code } });
  if (card.status !== 200) throw new Error(`card: ${card.text}`);
  return { campaign: campaign.body as { id: string; name: string }, card: card.body as { id: string; code: string } };
}

export async function customer(server: TestServer, sourceId: string): Promise<{ id: string }> {
  const res = await server.request('POST', '/v1/customers', { body: { source_id: sourceId } });
  if (res.status !== 200) throw new Error(`customer: ${res.text}`);
  return res.body;
}
