import { describe, expect, it } from 'vitest';
import { unstorableText, validateInput } from '../../contracts/input.js';
import { libraryBooks } from '../../contracts/library/catalog.contract.js';
import { iamCreateUser } from '../../contracts/operations/iam.contract.js';
import { ImportFormatError } from '../../subgraphs/library/import/import-errors.js';
import { parsePageLine } from '../../subgraphs/library/import/jsonl.js';

/**
 * Text PostgreSQL cannot store (a NUL, a lone surrogate) is refused where contract input
 * is validated, for any field and any service, and by the library's import per line.
 */

const LONE = 'must be well-formed Unicode text (no lone surrogates)';

describe('unstorableText', () => {
  it.each(['\ud800', 'a\udbff', '\udc00b', '\udc00\ud800', 'x\ud83dy'])('refuses %j: a lone surrogate', (text) => {
    expect(unstorableText(text)).toBe(LONE);
  });

  it.each(['', 'نص', 'Склад', '😀', '\ud83d\ude00', '𝕏'.repeat(10)])('takes %j: well-formed text', (text) => {
    expect(unstorableText(text)).toBeNull();
  });

  it('names a NUL before a lone surrogate', () => {
    expect(unstorableText('\u0000\ud800')).toBe('must not contain NUL characters');
  });
});

describe('validateInput', () => {
  it('refuses a lone surrogate in an operations field, naming it', () => {
    const validation = validateInput(iamCreateUser, { email: 'a@example.org', name: 'A\ud800', roles: ['Foreman'] });
    expect(validation).toMatchObject({ ok: false, issues: [{ path: ['name'], code: 'invalid_characters', message: LONE }] });
  });

  it('refuses one nested in an array item, naming its index', () => {
    const validation = validateInput(iamCreateUser, { email: 'a@example.org', name: 'A', roles: ['Foreman', '\udfff'] });
    expect(validation).toMatchObject({ ok: false, issues: [{ path: ['roles', 1], message: LONE }] });
  });

  it('refuses one in an object key, naming the object', () => {
    const validation = validateInput(iamCreateUser, { email: 'a@example.org', name: 'A', roles: ['Foreman'], '\ud800': 1 });
    expect(validation).toMatchObject({ ok: false, issues: [{ path: [], message: `keys ${LONE}` }] });
  });

  it('refuses one in a library query parameter, named as the wire names it', () => {
    const validation = validateInput(libraryBooks, { q: 'كتاب\ud800' });
    expect(validation).toMatchObject({ ok: false, issues: [{ location: 'query', path: ['q'], message: LONE }] });
  });
});

describe('the library import', () => {
  it('refuses a page line whose text holds a lone surrogate, naming the line and field', () => {
    const line = JSON.stringify({ book_id: 'b', book: 'كتاب', authors: 'مؤلف', category: 'ت', part: 'باب', page: 1, text: 'نص\ud800' });
    expect(() => parsePageLine(line, 3)).toThrow(ImportFormatError);
    expect(() => parsePageLine(line, 3)).toThrow(`line 3: field "text": ${LONE}`);
  });
});
