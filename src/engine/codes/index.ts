export * from './code-template.js';
export * from './feasibility.js';
export * from './generate.js';
export * from './random.js';
