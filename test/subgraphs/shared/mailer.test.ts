import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/logger.js';
import { Mailer } from '../../../subgraphs/shared/mailer.js';
import { Mailbox } from '../../support/mailbox.js';

const dataDir = mkdtempSync(join(tmpdir(), 'qantara-mail-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('mailer', () => {
  it('writes each mail as an .eml file under DATA_DIR/mail when no SMTP server is configured', async () => {
    const mailer = new Mailer({ smtpUrl: undefined, mailFrom: 'Qantara <no-reply@example.org>', dataDir }, createLogger('silent'));
    await mailer.send({ to: 'someone@example.org', subject: 'Verify your e-mail address', text: 'Follow https://example.org/x' });
    const files = readdirSync(join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = readFileSync(join(dataDir, 'mail', files[0]!), 'utf8');
    expect(eml).toContain('To: someone@example.org');
    expect(eml).toContain('Subject: Verify your e-mail address');
    expect(eml).toContain('https://example.org/x');
  });

  it('sends through SMTP_URL to a real SMTP server', async () => {
    const mailbox = await Mailbox.start();
    try {
      const mailer = new Mailer({ smtpUrl: mailbox.url, mailFrom: 'Qantara <no-reply@example.org>', dataDir }, createLogger('silent'));
      await mailer.send({ to: 'other@example.org', subject: 'Hello', text: 'Over SMTP' });
      expect((await mailbox.next('other@example.org', /Hello/)).text).toContain('Over SMTP');
    } finally {
      await mailbox.stop();
    }
  });
});
