import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanJsonArray } from '../../src/jobs/json-array-scan.js';

/** The bytes in chunks of `size` (1: every byte boundary is a chunk boundary). */
async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function scan(text: string, size: number): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of scanJsonArray(chunks(text, size))) values.push(value);
  return values;
}

describe('scanJsonArray', () => {
  it('gives the elements JSON.parse gives, whatever the chunks', async () => {
    const texts = [
      '[]',
      ' \n[ ]\r\n',
      '[1,-2.5e3,true,false,null,"x"]',
      '[{"a":"]},[{\\"\\\\","b":[1,{"c":[]}]},\n {"é":"日本語 ✓ 😀","d":"\\u005d,"}]',
      '[[1,[2,[3]]],{},[],""]',
    ];
    for (const text of texts) {
      for (const size of [1, 2, 3, 7, 64 * 1024])
        assert.deepEqual(await scan(text, size), JSON.parse(text), `${text} in chunks of ${size}`);
    }
  });

  it('throws at anything that is not one whole JSON array', async () => {
    const bad = [
      '',
      '{"a":1}',
      '1',
      '[1,]',
      '[,1]',
      '[1,,2]',
      '[1 2]',
      '[{"a":1}',
      '[1]]',
      '[1] x',
      '[}]',
      '[{"a":}]',
      '["a]',
      'x[1]',
    ];
    for (const text of bad) {
      for (const size of [1, 5, 1024])
        await assert.rejects(scan(text, size), `${JSON.stringify(text)} in chunks of ${size}`);
    }
  });
});
