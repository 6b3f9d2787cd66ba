import { defineErrorCodes } from '../../errors.js';

/** Codes of the operations service's webhooks (docs/adr/0015-webhooks.md). */
export const WebhookErrorCode = defineErrorCodes('operations', {
  WEBHOOK_ENDPOINT_LIMIT_REACHED: {
    status: 409,
    description: 'The organization has as many webhook endpoints as it may; delete one first.',
  },
});
