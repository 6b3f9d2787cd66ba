import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OperationsRole } from '../../contracts/access.js';
import type { OperationContract } from '../../contracts/operation.js';
import { kindOf, unwrap } from '../../contracts/schema-shape.js';
import type { TestStack } from './stack.js';

/** The operations test stack: the demo organization (one user per role) and a super-admin. */

export const SUPER_ADMIN = { email: 'root@example.org', password: 'root-password-123' } as const;
export const DEMO_PASSWORD = 'demo-password';
export const demoEmail = (role: OperationsRole) => `${role.toLowerCase()}@demo.qantara.local`;

export const OPERATIONS_ENV = {
  OPS_SUPERADMIN_EMAIL: SUPER_ADMIN.email,
  OPS_SUPERADMIN_PASSWORD: SUPER_ADMIN.password,
  DEMO_OPERATIONS: 'true',
} as const;

export interface Session {
  readonly token: string;
  readonly refreshToken: string;
  readonly userId: string;
  readonly organizationId: string | null;
}

export async function login(stack: Pick<TestStack, 'fetch'>, email: string, password = DEMO_PASSWORD): Promise<Session> {
  const response = await stack.fetch('/api/v1/iam/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as {
    access_token: string;
    refresh_token: string;
    user: { id: string; organizationId: string | null };
  };
  return { token: body.access_token, refreshToken: body.refresh_token, userId: body.user.id, organizationId: body.user.organizationId };
}

export interface Call {
  readonly status: number;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly headers: Headers;
}

/** An operations call with a session (and, for mutations that need one, a fresh Idempotency-Key unless given). */
export async function call(
  stack: Pick<TestStack, 'fetch'>,
  session: Session | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Call> {
  const response = await stack.fetch(path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(session ? { authorization: `Bearer ${session.token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export const idempotencyKey = () => ({ 'idempotency-key': randomUUID() });

/** Commits a previewed reference-book import (`<book path>/import/commit`) as `session`; the answer as it is. */
export const commitImport = (stack: Pick<TestStack, 'fetch'>, session: Session, bookPath: string, batchId: string): Promise<Call> =>
  call(stack, session, 'POST', `${bookPath}/import/commit`, { batchId }, idempotencyKey());

export interface OtherOrganization {
  readonly organizationId: string;
  /** The organization's Admin, signed in: `admin@<slug>.example.org`. */
  readonly admin: Session;
  /** The super-admin who created it, signed in. */
  readonly root: Session;
}

/** A new organization, created by the super-admin `root`; its id. A refusal throws with the answer. */
export async function createOrganization(stack: Pick<TestStack, 'fetch'>, root: Session, slug: string, name: string): Promise<string> {
  const created = await call(stack, root, 'POST', '/api/v1/core/organizations', { slug, name }, idempotencyKey());
  if (created.status !== 201) throw new Error(`organization ${slug}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

export interface NewMember {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly roles: readonly OperationsRole[];
}

/** A user of `organizationId` with `roles`, created by the super-admin `root`; its id. A refusal throws with the answer. */
export async function addMember(
  stack: Pick<TestStack, 'fetch'>,
  root: Session,
  organizationId: string,
  member: NewMember,
): Promise<string> {
  const user = await call(stack, root, 'POST', '/api/v1/iam/users', { ...member, organizationId });
  if (user.status !== 201) throw new Error(`${member.email}: ${user.status} ${JSON.stringify(user.body)}`);
  return user.body.id as string;
}

/**
 * Another organization beside the demo one, created by the super-admin, with an Admin of its
 * own signed in: what a tenant-isolation test calls "theirs". A refusal throws with the answer.
 */
export async function otherOrganization(stack: Pick<TestStack, 'fetch'>, slug: string, name: string): Promise<OtherOrganization> {
  const root = await login(stack, SUPER_ADMIN.email, SUPER_ADMIN.password);
  const organizationId = await createOrganization(stack, root, slug, name);
  const email = `admin@${slug}.example.org`;
  const password = `${slug}-password`;
  await addMember(stack, root, organizationId, { email, password, name: `${name} Admin`, roles: ['Admin'] });
  return { organizationId, admin: await login(stack, email, password), root };
}

/** A value a field's schema accepts, for calls whose input only has to pass validation. */
export function sample(schema: z.ZodType): unknown {
  const { base, optional } = unwrap(schema);
  if (optional) return undefined;
  // A field whose rule a made-up value cannot meet (a checksum, a pattern) documents an example.
  const examples = z.globalRegistry.get(schema)?.examples ?? z.globalRegistry.get(base)?.examples;
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  const kind = kindOf(base);
  const zod = (base as unknown as { _zod: { bag: { minimum?: number; minLength?: number; format?: string }; def: { format?: string } } })
    ._zod;
  // String formats (`z.iso.date()`, `z.email()`) keep their format in the definition, not in the bag.
  const bag = { ...zod.bag, format: zod.bag.format ?? zod.def.format };
  switch (kind.kind) {
    case 'scalar':
      if (kind.scalar === 'id') return randomUUID();
      if (kind.scalar === 'int' || kind.scalar === 'float') return Math.max(1, bag.minimum ?? 1);
      if (kind.scalar === 'boolean') return true;
      if (bag.format === 'date') return new Date().toISOString().slice(0, 10);
      if (bag.format === 'datetime') return new Date(Date.now() + 86_400_000).toISOString();
      if (bag.format === 'email') return `someone-${randomUUID().slice(0, 8)}@example.org`;
      // zod 4 keeps a string's `.min()` on the schema (`minLength`), not in the bag.
      return 'x'.repeat(Math.max((base as { minLength?: number | null }).minLength ?? bag.minLength ?? 1, 3));
    case 'enum':
      return kind.values[0];
    case 'list':
      return [sample(kind.item)];
    case 'object':
      return Object.fromEntries(Object.entries(kind.shape).map(([field, value]) => [field, sample(value)]));
    case 'json':
      return {};
  }
}

/** A request body for a contract: every body field it requires. */
export function sampleBody(contract: OperationContract): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(contract.input.body ?? {})
      .map(([field, schema]) => [field, sample(schema)] as const)
      .filter(([, value]) => value !== undefined),
  );
}

/** A REST path of a contract with its parameters filled in. */
export const fillPath = (path: string, values: Readonly<Record<string, string>>) =>
  path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => values[name] ?? randomUUID());
