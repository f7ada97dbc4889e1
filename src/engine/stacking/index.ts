export { noEffectSkips, selectStack, sortCandidates } from './select.js';
export * from './types.js';
