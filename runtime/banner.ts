import { VERSION } from '../contracts/version.js';
import type { Logger } from './logger.js';

/** What the start-up banner names: where everything is served, and how to sign in to the demo data. */
export interface BannerInput {
  /** The origin clients reach the server at (`PUBLIC_BASE_URL`, else the bound address). */
  readonly origin: string;
  /** The demo organization's sign-in emails, when it is made at first start. */
  readonly demoEmails?: readonly string[];
  /** Whether the demo research workspace (and its key) is made at first start. */
  readonly demoResearch?: boolean;
}

export interface Banner {
  /** The same as structured fields, for the one info line of a JSON log. */
  readonly fields: Record<string, unknown>;
  /** The human-readable block, for a terminal. */
  readonly text: string;
}

const DEMO_PASSWORD_AT = 'README.md, "Demo organization"';
const DEMO_KEY_AT = 'printed once, at the first start, in the log line "research demo workspace … created …"';

/** The start-up banner: the entry points of the server and where the demo sign-in and key are. */
export function startupBanner({ origin, demoEmails = [], demoResearch = false }: BannerInput): Banner {
  const at = (path: string) => `${origin}${path}`;
  const docs = { library: at('/docs'), operations: at('/api/v1/docs'), research: at('/research/docs') };
  const fields: Record<string, unknown> = { version: VERSION, home: at('/'), docs, graphql: at('/graphql'), console: at('/app/') };
  const rows: Array<[string, string]> = [
    ['Home', at('/')],
    ['Docs', `${docs.library}  (library)`],
    ['', `${docs.operations}  (operations)`],
    ['', `${docs.research}  (research)`],
    ['GraphQL', at('/graphql')],
    ['Console', at('/app/')],
  ];
  if (demoEmails.length > 0) {
    fields.demoSignIn = { emails: demoEmails, password: DEMO_PASSWORD_AT };
    rows.push(['Demo sign-in', demoEmails.join(', ')], ['', `password: ${DEMO_PASSWORD_AT}`]);
  }
  if (demoResearch) {
    fields.demoResearchKey = DEMO_KEY_AT;
    rows.push(['Demo research key', DEMO_KEY_AT]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const text = [`Qantara ${VERSION} is ready at ${origin}`, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join(
    '\n',
  );
  return { fields, text };
}

/**
 * Logs the banner as one info line (`msg: "ready"`, the entry points as fields), which is what a
 * JSON log keeps; at a terminal the human-readable block follows it on stdout.
 */
export function logBanner(logger: Logger, banner: Banner, terminal = process.stdout.isTTY === true): void {
  logger.info(banner.fields, 'ready');
  if (terminal) process.stdout.write(`\n${banner.text}\n\n`);
}
