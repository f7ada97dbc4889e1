import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell, csvLine } from '../../src/lib/csv.js';

describe('CSV cells and lines (RFC 4180)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['plain text', 'abc', 'abc'],
    ['a comma', 'a,b', '"a,b"'],
    ['double quotes, doubled', 'say "hi"', '"say ""hi"""'],
    ['a lone quote', '"', '""""'],
    ['a LF', 'one\ntwo', '"one\ntwo"'],
    ['a CR', 'one\rtwo', '"one\rtwo"'],
    ['a CRLF', 'one\r\ntwo', '"one\r\ntwo"'],
    ['spaces kept as they are', ' padded ', ' padded '],
    ['non-ASCII', 'Kraków ✓', 'Kraków ✓'],
    ['the empty string', '', ''],
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['an integer', 1500, '1500'],
    ['zero', 0, '0'],
    ['a negative number', -30, '-30'],
    ['a fraction', 12.5, '12.5'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an object as JSON, quoted', { a: 1, b: 'x' }, '"{""a"":1,""b"":""x""}"'],
    ['an array as JSON, quoted', ['MONDAY', 'FRIDAY'], '"[""MONDAY"",""FRIDAY""]"'],
    ['an empty object', {}, '{}'],
  ];
  for (const [name, value, cell] of cases) {
    it(name, () => assert.equal(csvCell(value), cell));
  }

  it('joins cells with commas and ends the line in CRLF', () => {
    assert.equal(csvLine(['id', 'a,b', null, 3]), 'id,"a,b",,3\r\n');
    assert.equal(csvLine([]), '\r\n');
  });
});
