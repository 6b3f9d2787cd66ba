import { describe, expect, it } from 'vitest';
import { validateAdminCommand } from '../../../../subgraphs/library/accounts/admin-input.js';
import { AdminTokenCheck } from '../../../../subgraphs/library/accounts/admin-token.js';
import { bearerKey, hashKey, looksLikeKey, newKeySecret } from '../../../../subgraphs/library/accounts/api-key-secret.js';
import { emailProblem } from '../../../../subgraphs/library/accounts/email.js';
import { limitsOf } from '../../../../subgraphs/library/accounts/plans.js';

describe('admin input validation', () => {
  it('accepts valid commands and yields typed values', () => {
    expect(validateAdminCommand('setRpd', { path: { key_id: '12' }, body: { rpd: '300' } })).toEqual({
      ok: true,
      value: { keyId: 12, rpd: 300 },
    });
    expect(validateAdminCommand('setRpd', { path: { key_id: 12 }, body: { rpd: null } })).toEqual({
      ok: true,
      value: { keyId: 12, rpd: null },
    });
    expect(validateAdminCommand('createKey', { body: { email: ' x@example.org ', plan: 'pro' } })).toEqual({
      ok: true,
      value: { email: 'x@example.org', plan: 'pro', org: null },
    });
  });

  it('words problems as pydantic v2 does', () => {
    const result = validateAdminCommand('setStatus', { path: { key_id: '1.5' }, body: { status: 'ACTIVE' } });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          loc: ['path', 'key_id'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          type: 'int_parsing',
          input: '1.5',
          ctx: {},
        },
        {
          loc: ['body', 'status'],
          msg: "Input should be 'active', 'suspended' or 'revoked'",
          type: 'literal_error',
          input: 'ACTIVE',
          ctx: { expected: "'active', 'suspended' or 'revoked'" },
        },
      ],
    });
  });

  it('reports an id beyond PostgreSQL integer as naming no key', () => {
    expect(validateAdminCommand('setPlan', { path: { key_id: '2147483648' }, body: { plan: 'pro' } })).toMatchObject({
      ok: false,
      issues: [{ type: 'value_error', loc: ['path', 'key_id'] }],
    });
  });
});

describe('keys and tokens', () => {
  it('issues qk_live_ keys of 256 random bits, stored as SHA-256', () => {
    const secret = newKeySecret();
    expect(secret.key).toMatch(/^qk_live_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeKey(secret.key)).toBe(true);
    expect(secret.hash).toBe(hashKey(secret.key));
    expect(secret.prefix).toBe(secret.key.slice(0, 12));
    expect(newKeySecret().key).not.toBe(secret.key);
  });

  it('reads only bearer credentials from Authorization', () => {
    expect(bearerKey('Bearer qk_live_x')).toBe('qk_live_x');
    expect(bearerKey('bearer   qk_live_x ')).toBe('qk_live_x');
    expect(bearerKey('Basic abc')).toBeUndefined();
    expect(bearerKey('Bearer')).toBeUndefined();
    expect(bearerKey(undefined)).toBeUndefined();
  });

  it('matches the admin token exactly and refuses everything when none is configured', () => {
    const check = new AdminTokenCheck('s3cret-admin-token-value');
    expect(check.matches('s3cret-admin-token-value')).toBe(true);
    expect(check.matches('s3cret-admin-token-valu')).toBe(false);
    expect(check.matches(undefined)).toBe(false);
    expect(new AdminTokenCheck(undefined).matches('')).toBe(false);
  });

  it('checks e-mail addresses like email-validator', () => {
    expect(emailProblem('reader@example.org')).toBeNull();
    expect(emailProblem('قارئ@مكتبة.example')).toBeNull();
    expect(emailProblem('reader')).toBe('An email address must have an @-sign.');
    expect(emailProblem('reader@localhost')).toMatch(/should have a period/);
    expect(emailProblem('a b@example.org')).toMatch(/invalid characters/);
  });

  it('replaces the plan’s daily quota with a key’s own', () => {
    expect(limitsOf('free', null)).toEqual({ rpm: 10, rpd: 300, maxLimit: 20 });
    expect(limitsOf('free', 5)).toEqual({ rpm: 10, rpd: 5, maxLimit: 20 });
    expect(limitsOf('retired-plan', null)).toEqual(limitsOf('free', null));
  });
});
