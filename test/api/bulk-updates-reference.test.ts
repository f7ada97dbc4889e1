import { describe, it } from 'node:test';
import { asyncActionExample, assertBulkUpdateResult, BULK_UPDATE_TYPES } from '../support/openapi.js';

/**
 * The reference gives bulk-update results no schema, only examples: the shape the bulk-update
 * tests check (test/support/openapi.ts) must accept each of the reference's own examples.
 */
describe('the bulk update result shape', () => {
  for (const type of BULK_UPDATE_TYPES) {
    it(`accepts the reference's example of ${type}`, () => {
      assertBulkUpdateResult(asyncActionExample(type).result);
    });
  }
});
