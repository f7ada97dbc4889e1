import type { Metrics } from './metrics.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { hashSecret, secretMatches } from '../lib/secrets.js';
import type { AppContext } from './context.js';

const isLoopback = (address = ''): boolean => address === '::1' || /^(::ffff:)?127\./.test(address);

/**
 * GET /metrics. Without PROMO_METRICS_TOKEN it answers only this machine (a scraper on the
 * same host, or a tunnel); with it, anyone who sends the token as a bearer, and no one else.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined) {
  const tokenHash = token === undefined ? undefined : hashSecret(token);
  return async function answerMetrics(ctx: AppContext): Promise<void> {
    if (tokenHash !== undefined) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
      if (!bearer || !secretMatches(bearer, tokenHash))
        throw unauthorized('Send Authorization: Bearer <PROMO_METRICS_TOKEN>');
    } else if (!isLoopback(ctx.socket.remoteAddress)) {
      throw forbidden('/metrics answers only this machine; set PROMO_METRICS_TOKEN to read it from elsewhere');
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
