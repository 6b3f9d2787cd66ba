import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../../runtime/logger.js';

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * Outgoing e-mail: through SMTP (`SMTP_URL`, nodemailer), or — with none configured —
 * written as `.eml` files under `DATA_DIR/mail`, each one logged with its path, so every
 * flow that mails a link works on a fresh machine.
 */
export class Mailer {
  private readonly transport: Transporter;
  private readonly directory: string | undefined;

  constructor(
    config: { readonly smtpUrl: string | undefined; readonly mailFrom: string; readonly dataDir: string },
    private readonly logger: Logger,
  ) {
    this.from = config.mailFrom;
    if (config.smtpUrl) {
      this.transport = nodemailer.createTransport(config.smtpUrl);
    } else {
      this.directory = join(config.dataDir, 'mail');
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  private readonly from: string;

  async send(mail: Mail): Promise<void> {
    const sent = await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
    if (!this.directory) return;
    mkdirSync(this.directory, { recursive: true });
    const file = join(this.directory, `${new Date().toISOString().replace(/[:.]/g, '-')}-${sent.messageId.replace(/[<>@]/g, '')}.eml`);
    writeFileSync(file, (sent as unknown as { message: Buffer }).message);
    this.logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written (no SMTP_URL)');
  }
}
