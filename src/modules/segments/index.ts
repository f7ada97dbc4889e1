/** The segments module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { onSegmentEntered, type SegmentEntered } from './segment-entered.seam.js';
export { customerSegmentIds, requireSegment } from './segments.service.js';
