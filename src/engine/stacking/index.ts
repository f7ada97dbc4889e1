export { selectStack } from './select.js';
export * from './types.js';
