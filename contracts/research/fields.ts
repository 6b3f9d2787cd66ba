import { z } from 'zod';

/** Input fields of the research API, named by what they hold. */

const HTTP_URL = /^https?:\/\//i;

export const research = {
  threadId: () => z.string().min(1).max(100).describe('A case id, `thread_…`.'),
  apiKeyId: () => z.string().min(1).max(100).describe('A key id, `key_…`.'),
  workspaceId: () => z.string().min(1).max(100).describe('A workspace id, `ws_…`.'),
  message: () => z.string().trim().min(1).max(8000).describe('What the user says, 1 to 8000 characters.'),
  /** An absolute http(s) URL the payer returns to. */
  returnUrl: () => z.url({ error: 'must be an absolute http(s) URL' }).max(2048).regex(HTTP_URL, { error: 'must use http or https' }),
};
