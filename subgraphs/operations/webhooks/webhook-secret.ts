import { randomBytes } from 'node:crypto';

/** Bytes of a signing secret: within the 24 to 64 Standard Webhooks asks for, and the size of an HMAC-SHA256 key. */
const SECRET_BYTES = 32;

/** A new signing secret in the Standard Webhooks form: `whsec_` and the base64 of random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

/** How long deliveries are also signed with the previous secret after a rotation. */
export const PREVIOUS_SECRET_HOURS = 24;
