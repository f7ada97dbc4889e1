import type { TestServer } from '../../support/server.js';
import { loyaltyCampaign } from '../../support/factories.js';

/**
 * A loyalty program with one member card holding `points`, and a reward assigned to the
 * program for `cost` points: MATERIAL (a product, with `stock`) unless told.
 */
export async function loyaltySetup(
  server: TestServer,
  name: string,
  options: { points: number; cost: number; stock?: number | null },
) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const program = await ok('POST', '/v1/campaigns', loyaltyCampaign(name));
  const member = await ok('POST', `/v1/loyalties/${program.id}/members`, { customer: { source_id: `${name}-member` } });
  if (options.points > 0) await ok('POST', `/v1/loyalties/members/${member.code}/balance`, { points: options.points });
  const product = await ok('POST', '/v1/products', { name: `${name} mug`, price: 900 });
  const reward = await ok('POST', '/v1/rewards', {
    name: `${name} mug`,
    parameters: { product: { id: product.id } },
    stock: options.stock ?? null,
  });
  const [assignment] = await ok('POST', `/v1/loyalties/${program.id}/rewards`, [
    { reward: reward.id, parameters: { loyalty: { points: options.cost } } },
  ]);
  return { program, member, product, reward, assignment, customerSourceId: `${name}-member` };
}
