import type { ResearchScope } from '../../contracts/access.js';
import { startStack, type TestStack } from './stack.js';

/** The research test stack: admin token set, no demo workspace unless asked, and helpers over real HTTP. */

export const RESEARCH_ADMIN_TOKEN = 'research-admin-token-0123456789';

export const ALL_RESEARCH_SCOPES: readonly ResearchScope[] = [
  'api_keys_admin',
  'billing_read',
  'billing_write',
  'threads_read',
  'threads_write',
  'research_write',
];

export function startResearchStack(env: Record<string, string> = {}): Promise<TestStack> {
  return startStack({ ADMIN_TOKEN: RESEARCH_ADMIN_TOKEN, DEMO_RESEARCH: 'false', ...env });
}

export interface Reply {
  readonly status: number;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly text: string;
  readonly headers: Headers;
}

/** A research call with a key (or none), JSON in and out. */
export async function call(stack: TestStack, key: string | null, method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await stack.fetch(path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, text, headers: response.headers };
}

export interface Workspace {
  readonly id: string;
  /** The first key: `api_keys_admin` only. */
  readonly adminKey: string;
}

export async function createWorkspace(stack: TestStack, name: string, mode: 'live' | 'test' = 'live'): Promise<Workspace> {
  const response = await stack.fetch('/admin/research/workspaces', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
    body: JSON.stringify({ name, mode }),
  });
  if (response.status !== 201) throw new Error(`create workspace: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { workspace: { id: string }; apiKey: { key: string } };
  return { id: body.workspace.id, adminKey: body.apiKey.key };
}

export async function grantCredits(
  stack: TestStack,
  workspaceId: string,
  credits: number,
  mode: 'live' | 'test' = 'live',
): Promise<number> {
  const response = await stack.fetch(`/admin/research/workspaces/${workspaceId}/credits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': RESEARCH_ADMIN_TOKEN },
    body: JSON.stringify({ credits, reason: 'test', mode }),
  });
  if (response.status !== 200) throw new Error(`grant: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { creditBalance: number }).creditBalance;
}

export async function createKey(
  stack: TestStack,
  adminKey: string,
  scopes: readonly ResearchScope[],
  mode?: 'live' | 'test',
): Promise<string> {
  const response = await call(stack, adminKey, 'POST', '/v1/api-keys', {
    name: `key ${scopes.join(' ')}`,
    scopes,
    ...(mode ? { mode } : {}),
  });
  if (response.status !== 201) throw new Error(`create key: ${response.status} ${response.text}`);
  return response.body.key as string;
}

/** A workspace with credits and a key holding every scope. */
export async function fundedWorkspace(stack: TestStack, name: string, credits: number, mode: 'live' | 'test' = 'live') {
  const workspace = await createWorkspace(stack, name, mode);
  if (credits > 0) await grantCredits(stack, workspace.id, credits, mode);
  const key = await createKey(stack, workspace.adminKey, ALL_RESEARCH_SCOPES, mode);
  return { ...workspace, key };
}

/** A case's safe view as the tests read it. */
export type CaseView = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Reads a case until `done` holds (the assistant and runs work on the queue), failing after
 * `deadlineMs`; with a key on `/v1/chat/threads`, or a signed-in user's token on `/api/chat/threads`.
 */
export async function readUntil(
  stack: TestStack,
  key: string,
  threadId: string,
  done: (view: CaseView) => boolean,
  deadlineMs = 30_000,
  base = '/v1/chat/threads',
): Promise<CaseView> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const view = await call(stack, key, 'GET', `${base}/${threadId}`);
    if (view.status !== 200) throw new Error(`read case: ${view.status} ${view.text}`);
    if (done(view.body)) return view.body;
    if (Date.now() > until) throw new Error(`case ${threadId} did not settle: ${view.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const allComplete = (view: { messages: Array<{ status: string }> }) =>
  view.messages.every((message) => message.status === 'complete');

/** A message that fills every required anamnesis field (the offline assistant reads labelled lines). */
export const READY_IDEA = [
  'Idea: a marketplace matching dog owners with vetted sitters.',
  'Target users: urban dog owners who travel for work',
  'Problem: finding a trusted sitter on short notice is hard',
  'Solution: vetted sitters booked in two taps',
  'Monetization: 15% commission per booking',
].join('\n');

/**
 * A case started with READY_IDEA, its reply complete: with a key on `/v1/chat/threads`, or a
 * signed-in user's token on `/api/chat/threads`. A refused message throws with the answer.
 */
export async function startReadyCase(
  stack: TestStack,
  bearer: string,
  base = '/v1/chat/threads',
): Promise<{ threadId: string; view: CaseView }> {
  const created = await call(stack, bearer, 'POST', base, { message: READY_IDEA });
  if (created.status !== 202) throw new Error(`start case: ${created.status} ${created.text}`);
  const threadId = created.body.thread.id as string;
  return { threadId, view: await readUntil(stack, bearer, threadId, allComplete, 30_000, base) };
}

export interface LedgerRow {
  readonly delta: number;
  readonly balanceAfter: number;
  readonly kind: string;
  readonly reference: string | null;
}

/** The ledger of a workspace and mode, oldest first, and its balance row, read from PostgreSQL. */
export async function readLedger(stack: TestStack, workspaceId: string, mode: 'live' | 'test' = 'live') {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const entries = await client.query(
      'select delta, balance_after, kind, reference from research.credit_ledger where workspace_id = $1 and mode = $2 order by id',
      [workspaceId, mode],
    );
    const balance = await client.query('select balance from research.credit_balance where workspace_id = $1 and mode = $2', [
      workspaceId,
      mode,
    ]);
    const rows: LedgerRow[] = entries.rows.map((row) => ({
      delta: row.delta as number,
      balanceAfter: row.balance_after as number,
      kind: row.kind as string,
      reference: row.reference as string | null,
    }));
    return { rows, balance: balance.rows[0].balance as number };
  } finally {
    await client.end();
  }
}

export const runsSettled = (view: CaseView) =>
  view.runs.length > 0 && view.runs.every((run: { status: string }) => run.status === 'completed' || run.status === 'failed');
