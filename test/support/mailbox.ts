import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, its text body decoded. */
export interface ReceivedMail {
  readonly to: string[];
  readonly subject: string;
  readonly text: string;
}

/** Quoted-printable (what nodemailer uses for long text lines) back to text. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } catch {
    return bytes;
  }
}

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text };
}

/**
 * A real SMTP server on loopback that keeps what it receives, for tests that follow the
 * links the service mails (`SMTP_URL=mailbox.url`).
 */
export class Mailbox {
  readonly mails: ReceivedMail[] = [];
  private server!: SMTPServer;
  url = '';

  static async start(): Promise<Mailbox> {
    const mailbox = new Mailbox();
    mailbox.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
          mailbox.mails.push(parse(Buffer.concat(chunks).toString('utf8'), to));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => mailbox.server.listen(0, '127.0.0.1', resolve));
    mailbox.url = `smtp://127.0.0.1:${(mailbox.server.server.address() as AddressInfo).port}`;
    return mailbox;
  }

  /** The newest mail to `to` whose subject matches, waiting for it to arrive (up to 10 s). */
  async next(to: string, subject: RegExp, after = 0): Promise<ReceivedMail> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.mails
        .slice(after)
        .filter((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject))
        .at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** How many mails have arrived so far (to wait only for later ones). */
  get count(): number {
    return this.mails.length;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in a mail that contains `part`. */
export function linkIn(mail: ReceivedMail, part: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((candidate) => candidate.includes(part));
  if (!link) throw new Error(`no link with ${part} in: ${mail.text}`);
  return link;
}
