import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALPHANUMERIC,
  capacity,
  checkFeasibility,
  codeGenerator,
  codeTemplate,
  infeasibleDetails,
  literalPrefix,
  presentCodeConfig,
  templateGlob,
  uniformIndex,
  type CodeConfigInput,
  type CodeTemplate,
} from '../../src/engine/codes/index.js';

const templateOf = (input: CodeConfigInput): CodeTemplate => {
  const result = codeTemplate(input);
  assert.ok(result.ok, `expected a valid template for ${JSON.stringify(input)}`);
  return result.template;
};

/** A byte source that gives these bytes first (then zeros), whatever block size is asked. */
function replay(bytes: number[]): (size: number) => Uint8Array {
  return (size) => {
    const out = new Uint8Array(size);
    out.set(bytes.splice(0, size));
    return out;
  };
}

describe('codeTemplate', () => {
  const cases: Array<{ name: string; input: CodeConfigInput; template?: CodeTemplate; error?: string }> = [
    {
      name: 'defaults: 8 alphanumeric',
      input: {},
      template: { prefix: '', postfix: '', pattern: '########', charset: Array.from(ALPHANUMERIC) },
    },
    {
      name: 'length',
      input: { length: 3, charset: 'AB' },
      template: { prefix: '', postfix: '', pattern: '###', charset: ['A', 'B'] },
    },
    {
      name: 'repeats in the charset are ignored',
      input: { length: 2, charset: 'AABBA' },
      template: { prefix: '', postfix: '', pattern: '##', charset: ['A', 'B'] },
    },
    {
      name: 'the pattern overrides length',
      input: { length: 12, pattern: 'X-##-Y', charset: '01' },
      template: { prefix: '', postfix: '', pattern: 'X-##-Y', charset: ['0', '1'] },
    },
    {
      name: 'prefix and postfix',
      input: { prefix: 'PRE-', postfix: '-END', length: 2, charset: 'x' },
      template: { prefix: 'PRE-', postfix: '-END', pattern: '##', charset: ['x'] },
    },
    {
      name: 'any characters, by code point',
      input: { length: 1, charset: 'é😀é' },
      template: { prefix: '', postfix: '', pattern: '#', charset: ['é', '😀'] },
    },
    { name: 'length 0', input: { length: 0 }, error: 'code_config.length must be an integer from 1 to 255' },
    { name: 'fractional length', input: { length: 2.5 }, error: 'code_config.length must be an integer from 1 to 255' },
    { name: 'empty charset', input: { charset: '' }, error: 'code_config.charset must contain at least one character' },
    {
      name: 'too long',
      input: { length: 250, prefix: 'ABCDEF' },
      error: 'A generated code would be 256 characters long; at most 255 are allowed',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = codeTemplate(c.input);
      assert.deepEqual(result, c.template ? { ok: true, template: c.template } : { ok: false, error: c.error });
    });
  }
});

describe('capacity, glob, literal prefix and presented config', () => {
  const cases: Array<{ input: CodeConfigInput; capacity: bigint; glob: string; prefix: string }> = [
    { input: { length: 2, charset: 'AB' }, capacity: 4n, glob: '[AB][AB]', prefix: '' },
    { input: { pattern: 'X-#', charset: '0123' }, capacity: 4n, glob: 'X-[0123]', prefix: 'X-' },
    {
      input: { prefix: 'P', postfix: 'S', pattern: '#Z#', charset: 'ab' },
      capacity: 4n,
      glob: 'P[ab]Z[ab]S',
      prefix: 'P',
    },
    { input: { pattern: 'FIXED', charset: 'ab' }, capacity: 1n, glob: 'FIXED', prefix: 'FIXED' },
    { input: { length: 1, charset: 'z' }, capacity: 1n, glob: 'z', prefix: '' },
    { input: { length: 1, charset: ']a-^' }, capacity: 4n, glob: '[]a^-]', prefix: '' },
    { input: { length: 1, charset: '^-' }, capacity: 2n, glob: '[-^]', prefix: '' },
    { input: { prefix: '*?[', length: 1, charset: '*' }, capacity: 1n, glob: '[*][?][[][*]', prefix: '*?[' },
    { input: { length: 30 }, capacity: 62n ** 30n, glob: `[${ALPHANUMERIC}]`.repeat(30), prefix: '' },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.input), () => {
      const t = templateOf(c.input);
      assert.equal(capacity(t), c.capacity);
      assert.equal(templateGlob(t), c.glob);
      assert.equal(literalPrefix(t), c.prefix);
    });
  }

  it('presents the config with its defaults', () => {
    assert.deepEqual(presentCodeConfig(templateOf({})), { length: 8, charset: ALPHANUMERIC, pattern: '########' });
    assert.deepEqual(presentCodeConfig(templateOf({ prefix: 'A', postfix: 'B', pattern: '#-#', charset: 'xyx' })), {
      length: 2,
      charset: 'xy',
      prefix: 'A',
      postfix: 'B',
      pattern: '#-#',
    });
  });
});

describe('uniformIndex (no modulo bias)', () => {
  const cases: Array<{ name: string; n: number; bytes: number[]; draws: number; expected: number[] }> = [
    // 256 % 3 = 1: byte 255 would favour 0, so it is rejected and the next byte is used.
    { name: 'rejects the incomplete last block (n=3)', n: 3, bytes: [255, 4, 254, 0], draws: 3, expected: [1, 2, 0] },
    // 256 % 62 = 8: bytes 248..255 are rejected.
    { name: 'rejects 248..255 for n=62', n: 62, bytes: [248, 251, 61, 62, 247], draws: 3, expected: [61, 0, 61] },
    { name: 'a power of two rejects nothing (n=4)', n: 4, bytes: [255, 6, 3], draws: 3, expected: [3, 2, 3] },
    // n > 256 draws four big-endian bytes: 2^32 % 1000 = 296, so values >= 2^32 - 296 are rejected.
    { name: 'four bytes for n=1000', n: 1000, bytes: [255, 255, 255, 255, 0, 0, 1, 0], draws: 1, expected: [256] },
    { name: 'n=1 needs no randomness', n: 1, bytes: [], draws: 3, expected: [0, 0, 0] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pick = uniformIndex(c.n, replay(c.bytes));
      assert.deepEqual(Array.from({ length: c.draws }, pick), c.expected);
    });
  }

  it('refuses sets it cannot draw from', () => {
    assert.throws(() => uniformIndex(0), RangeError);
    assert.throws(() => uniformIndex(1.5), RangeError);
  });

  it('is uniform over crypto bytes (chi-square, 62 buckets, 620,000 draws)', () => {
    const pick = uniformIndex(62);
    const counts = new Array<number>(62).fill(0);
    const draws = 620_000;
    for (let i = 0; i < draws; i++) (counts[pick()] as number)++;
    const expected = draws / 62;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: P(chi2 > 110) < 1e-4. A modulo-biased draw scores in the hundreds.
    assert.ok(chi2 < 110, `chi-square ${chi2.toFixed(1)} is too high`);
  });
});

describe('codeGenerator', () => {
  it('expands # with charset characters and keeps the fixed parts', () => {
    const next = codeGenerator(
      templateOf({ prefix: 'P-', postfix: '-S', pattern: 'A#B#', charset: 'xyz' }),
      replay([0, 2, 1, 1]),
    );
    assert.equal(next(), 'P-AxBz-S');
    assert.equal(next(), 'P-AyBy-S');
  });

  it('draws whole code points from a non-ASCII charset', () => {
    const next = codeGenerator(templateOf({ length: 3, charset: 'é😀' }), replay([1, 0, 1]));
    assert.equal(next(), '😀é😀');
  });

  it('gives every code of a small space', () => {
    const next = codeGenerator(templateOf({ length: 2, charset: 'ab' }));
    const seen = new Set<string>();
    for (let i = 0; i < 500 && seen.size < 4; i++) seen.add(next());
    assert.deepEqual([...seen].sort(), ['aa', 'ab', 'ba', 'bb']);
  });
});

describe('checkFeasibility', () => {
  const cases: Array<{ capacity: bigint; taken: bigint; requested: bigint; ok: boolean; max: bigint }> = [
    { capacity: 100n, taken: 0n, requested: 50n, ok: true, max: 50n },
    { capacity: 100n, taken: 0n, requested: 51n, ok: false, max: 50n },
    { capacity: 100n, taken: 40n, requested: 30n, ok: true, max: 30n },
    { capacity: 100n, taken: 40n, requested: 31n, ok: false, max: 30n },
    { capacity: 1n, taken: 0n, requested: 1n, ok: false, max: 0n },
    { capacity: 10n, taken: 12n, requested: 1n, ok: false, max: 0n },
    { capacity: 62n ** 8n, taken: 5n, requested: 1_000_000n, ok: true, max: (62n ** 8n - 5n) / 2n },
  ];
  for (const c of cases) {
    it(`${c.requested} of ${c.capacity} with ${c.taken} taken`, () => {
      const f = checkFeasibility(c.capacity, c.taken, c.requested);
      assert.deepEqual(f, { ok: c.ok, capacity: c.capacity, taken: c.taken, maxRequest: c.max });
    });
  }

  it('says why, with the numbers', () => {
    assert.equal(
      infeasibleDetails(31n, checkFeasibility(100n, 40n, 31n)),
      'Cannot generate 31 code(s): the code config allows 100 distinct code(s), 40 of them are already taken or reserved, and a request may use at most half of what is left (30).',
    );
  });
});
