/**
 * The permanent-deletion module's front door. Nothing outside the module uses it yet: its routes are collected by
 * http/routes.ts and its job steps and sweeps by src/root, each by file (docs/architecture.md, Front doors).
 */
export {};
