/**
 * A pragmatic e-mail check in the spirit of `email-validator` (what pydantic's
 * `EmailStr` uses): one `@`, a local part, a dotted domain, no spaces. Returns the
 * reason a value is refused, worded as that library words it, or `null`.
 */
export function emailProblem(value: string): string | null {
  if (value.length > 254) return 'The email address is too long (at most 254 characters).';
  const at = value.lastIndexOf('@');
  if (at < 0) return 'An email address must have an @-sign.';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length === 0) return 'There must be something before the @-sign.';
  if (domain.length === 0) return 'There must be something after the @-sign.';
  if (local.length > 64) return 'The email address is too long before the @-sign (at most 64 characters).';
  if (/[\s@<>()[\],;:"\\]/.test(local)) return 'The email address contains invalid characters before the @-sign.';
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return 'The email address has a period in an invalid place before the @-sign.';
  }
  if (!/^[\p{L}\p{N}.-]+$/u.test(domain)) return 'The part after the @-sign contains invalid characters.';
  const labels = domain.split('.');
  if (labels.length < 2) return 'The part after the @-sign is not valid. It should have a period.';
  if (labels.some((label) => label.length === 0 || label.startsWith('-') || label.endsWith('-'))) {
    return 'The part after the @-sign is not valid.';
  }
  if (/^\d+$/.test(labels.at(-1)!)) return 'The part after the @-sign is not valid. It is not within a valid top-level domain.';
  return null;
}

/** The form counted against the per-address registration limit: trimmed, lower-cased. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
