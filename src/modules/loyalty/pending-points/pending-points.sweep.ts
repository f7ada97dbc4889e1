import type { Deps } from '../../../app/deps.js';
import { randomBase62 } from '../../../lib/ids.js';
import { activateDuePendingPoints } from './pending-points.service.js';

/**
 * The pending-points sweep (registered in root/sweep-registry.ts): every PENDING row due by the
 * Deps' clock activates, once, whichever process sweeps first. Returns how many it activated.
 */
export const activateDuePendingPointsSweep = (deps: Pick<Deps, 'db' | 'clock' | 'seams'>): Promise<number> =>
  activateDuePendingPoints(deps, { channel: 'INTERNAL', request_id: `w-${randomBase62(18)}` });
