import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES } from '../../contracts/operations/documents/types.js';
import { ADDRESS_KEY_PURPOSE } from '../../subgraphs/operations/documents/document-storage.js';
import { UrlSigner, type UrlGrant } from '../../subgraphs/operations/documents/signed-url.js';
import { EICAR } from '../../subgraphs/operations/documents/virus-scanner.js';
import { SecretBox } from '../../subgraphs/shared/secret-box.js';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Documents with the default stores: files under DATA_DIR behind signed, expiring
 * addresses of this API, and the built-in scanner. The whole flow by plain HTTP, and
 * every refusal: not uploaded, wrong SHA-256, the EICAR file, too large, altered or
 * expired addresses.
 */

const SECRETS_KEY = randomBytes(32).toString('hex');
let dataDir: string;
let stack: TestStack;
let foreman: Session;
let mechanic: Session;
let admin: Session;
/** A production object every writer of the demo organization sees: a document names a record of the caller's organization. */
let objectId: string;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function initiate(session: Session, overrides: Record<string, unknown> = {}) {
  const body = {
    entityType: 'core.production-object',
    entityId: objectId,
    filename: 'passport.pdf',
    mimeType: 'application/pdf',
    ...overrides,
  };
  return call(stack, session, 'POST', '/api/v1/core/documents', body, idempotencyKey());
}

/** A pending document and its upload address. */
async function started(overrides: Record<string, unknown> = {}): Promise<{ id: string; uploadUrl: string }> {
  const response = await initiate(foreman, overrides);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.document.id, uploadUrl: response.body.upload.url };
}

const put = (url: string, body: Uint8Array) => fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } });
const confirm = (id: string, body: Record<string, unknown> = {}, session = mechanic) =>
  call(stack, session, 'POST', `/api/v1/core/documents/${id}/confirm`, body, idempotencyKey());
const downloadAddress = (id: string, session = admin) => call(stack, session, 'GET', `/api/v1/core/documents/${id}/download`);
const problem = async (response: Response) => ({ status: response.status, code: ((await response.json()) as { code: string }).code });

/** The grant inside an address's token (its first, signed part). */
const grantOf = (url: string): UrlGrant => JSON.parse(Buffer.from(url.split('/').pop()!.split('.')[0]!, 'base64url').toString('utf8'));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'qantara-documents-'));
  stack = await startStack({ ...OPERATIONS_ENV, DATA_DIR: dataDir, SECRETS_KEY });
  [foreman, mechanic, admin] = await Promise.all([
    login(stack, demoEmail('Foreman')),
    login(stack, demoEmail('Mechanic')),
    login(stack, demoEmail('Admin')),
  ]);
  objectId = (await call(stack, foreman, 'GET', '/api/v1/core/production-objects')).body[0].id;
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the document flow', () => {
  it('initiates a pending document, uploads to the presigned address by plain HTTP, confirms it ready and downloads the same bytes', async () => {
    const file = randomBytes(200_000);
    const response = await initiate(foreman, { filename: 'Паспорт «БУ-1».pdf', bucket: 'asset-passports' });
    expect(response.status).toBe(201);
    expect(response.body.document).toMatchObject({
      status: 'pending',
      size: null,
      sha256: null,
      bucket: 'asset-passports',
      mimeType: 'application/pdf',
    });
    const { url, method, expiresAt } = response.body.upload;
    expect(method).toBe('PUT');
    expect(url.startsWith(`${stack.url}/api/v1/core/documents/uploads/`)).toBe(true);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const uploaded = await put(url, file);
    expect(uploaded.status).toBe(200);
    expect(await uploaded.json()).toEqual({ size: file.length });
    const confirmed = await confirm(response.body.document.id, { sha256: sha256(file).toUpperCase() });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: response.body.document.id, status: 'ready', size: file.length, sha256: sha256(file) });
    const address = await downloadAddress(response.body.document.id);
    expect(address.body).toMatchObject({ size: file.length, filename: 'Паспорт «БУ-1».pdf', mimeType: 'application/pdf' });
    expect(address.headers.get('cache-control')).toBe('no-store');
    const downloaded = await fetch(address.body.url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('application/pdf');
    expect(downloaded.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Паспорт «БУ-1».pdf')}`);
    expect(downloaded.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(file)).toBe(true);
  });

  it('refuses to confirm before anything is uploaded, and gives no download address before it is ready', async () => {
    const { id } = await started();
    const early = await confirm(id);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('DOCUMENT_NOT_UPLOADED');
    const pending = await downloadAddress(id);
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('DOCUMENT_NOT_READY');
  });

  it('refuses a wrong sha256 with 422 and keeps the document pending until a confirmation that matches', async () => {
    const { id, uploadUrl } = await started();
    const file = Buffer.from('quarterly report');
    await put(uploadUrl, file);
    const wrong = await confirm(id, { sha256: sha256(Buffer.from('something else')) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('DOCUMENT_CHECKSUM_MISMATCH');
    expect((await downloadAddress(id)).body.code).toBe('DOCUMENT_NOT_READY');
    expect((await confirm(id, { sha256: 'abc' })).status).toBe(422);
    expect((await confirm(id, { sha256: sha256(file) })).body).toMatchObject({ status: 'ready', size: file.length });
  });

  it('confirms once: a second confirmation is 409 STATE_CONFLICT, its replay with the same key the same answer', async () => {
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.from('once'));
    const key = idempotencyKey();
    const first = await call(stack, mechanic, 'POST', `/api/v1/core/documents/${id}/confirm`, {}, key);
    const replay = await call(stack, mechanic, 'POST', `/api/v1/core/documents/${id}/confirm`, {}, key);
    expect(replay.body).toEqual(first.body);
    const again = await confirm(id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STATE_CONFLICT');
  });

  it('serves the confirmed file even when something else is uploaded to the old upload address afterwards', async () => {
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.from('the scanned file'));
    await confirm(id);
    expect((await put(uploadUrl, EICAR)).status).toBe(200);
    const downloaded = await fetch((await downloadAddress(id)).body.url);
    expect(await downloaded.text()).toBe('the scanned file');
  });
});

describe('the virus scan', () => {
  it('refuses the EICAR test file with 422 DOCUMENT_INFECTED, deletes it, and the document never becomes ready', async () => {
    const { id, uploadUrl } = await started();
    expect((await put(uploadUrl, EICAR)).status).toBe(200);
    const infected = await confirm(id);
    expect(infected.status).toBe(422);
    expect(infected.body.code).toBe('DOCUMENT_INFECTED');
    expect(infected.body.detail).toContain('Eicar-Test-Signature');
    expect((await confirm(id)).body.code).toBe('DOCUMENT_NOT_UPLOADED');
    expect((await downloadAddress(id)).body.code).toBe('DOCUMENT_NOT_READY');
  });

  it('finds the EICAR string inside a larger file, across the boundary of two reads', async () => {
    const { id, uploadUrl } = await started();
    const file = Buffer.concat([randomBytes(65_536 - 30), EICAR, randomBytes(10_000)]);
    await put(uploadUrl, file);
    expect((await confirm(id)).body.code).toBe('DOCUMENT_INFECTED');
  });
});

describe('the addresses', () => {
  it('refuses an altered upload address with 403 DOCUMENT_URL_INVALID and writes nothing', async () => {
    const { id, uploadUrl } = await started();
    const [payload, signature] = uploadUrl.split('/').pop()!.split('.') as [string, string];
    const base = uploadUrl.slice(0, uploadUrl.lastIndexOf('/') + 1);
    const otherKey = Buffer.from(JSON.stringify({ ...grantOf(uploadUrl), key: grantOf(uploadUrl).key.replace(id, randomUUID()) })).toString(
      'base64url',
    );
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const token of [`${otherKey}.${signature}`, `${payload}.${flipped}`, payload, 'garbage', `${payload}.${signature}.x`]) {
      expect(await problem(await put(`${base}${token}`, Buffer.from('x'))), token).toEqual({ status: 403, code: 'DOCUMENT_URL_INVALID' });
    }
    expect((await confirm(id)).body.code).toBe('DOCUMENT_NOT_UPLOADED');
  });

  it('refuses an expired address with 403 DOCUMENT_URL_EXPIRED, while the same grant signed to expire later is accepted', async () => {
    const { id, uploadUrl } = await started();
    const signer = new UrlSigner(SecretBox.fromConfig({ secretsKey: SECRETS_KEY, dataDir }).derive(ADDRESS_KEY_PURPOSE));
    const grant = grantOf(uploadUrl);
    const base = uploadUrl.slice(0, uploadUrl.lastIndexOf('/') + 1);
    const expired = signer.sign({ ...grant, expires: Math.floor(Date.now() / 1000) - 60 });
    expect(await problem(await put(`${base}${expired}`, Buffer.from('late')))).toEqual({ status: 403, code: 'DOCUMENT_URL_EXPIRED' });
    const later = signer.sign({ ...grant, expires: Math.floor(Date.now() / 1000) + 60 });
    expect((await put(`${base}${later}`, Buffer.from('in time'))).status).toBe(200);
    expect((await confirm(id)).body.size).toBe(7);
    const download = (await downloadAddress(id)).body.url as string;
    const downloadBase = download.slice(0, download.lastIndexOf('/') + 1);
    const stale = signer.sign({ ...grantOf(download), expires: Math.floor(Date.now() / 1000) - 1 });
    expect(await problem(await fetch(`${downloadBase}${stale}`))).toEqual({ status: 403, code: 'DOCUMENT_URL_EXPIRED' });
  });

  it('refuses a download address used to upload, and an altered download address', async () => {
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.from('content'));
    await confirm(id);
    const download = (await downloadAddress(id)).body.url as string;
    const token = download.split('/').pop()!;
    const uploads = uploadUrl.slice(0, uploadUrl.lastIndexOf('/') + 1);
    expect(await problem(await put(`${uploads}${token}`, Buffer.from('swap')))).toEqual({ status: 403, code: 'DOCUMENT_URL_INVALID' });
    const altered = Buffer.from(JSON.stringify({ ...grantOf(download), filename: 'other.pdf' })).toString('base64url');
    const tampered = `${download.slice(0, download.lastIndexOf('/') + 1)}${altered}.${token.split('.')[1]}`;
    expect(await problem(await fetch(tampered))).toEqual({ status: 403, code: 'DOCUMENT_URL_INVALID' });
    expect(await (await fetch(download)).text()).toBe('content');
  });

  it('refuses an upload larger than 25 MiB with 413 and keeps nothing of it', async () => {
    const { id, uploadUrl } = await started();
    const tooLarge = await put(uploadUrl, Buffer.alloc(DOCUMENT_MAX_BYTES + 1, 1));
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { code: string }).code).toBe('DOCUMENT_TOO_LARGE');
    expect((await confirm(id)).body.code).toBe('DOCUMENT_NOT_UPLOADED');
    expect((await put(uploadUrl, Buffer.alloc(DOCUMENT_MAX_BYTES, 1))).status).toBe(200);
    expect((await confirm(id)).body).toMatchObject({ status: 'ready', size: DOCUMENT_MAX_BYTES });
  });
});

describe('bounds and roles', () => {
  it('refuses every field outside its documented bounds with 422', async () => {
    for (const overrides of [
      { entityType: 'asset' },
      { entityType: `a.${'x'.repeat(99)}` },
      { entityType: '' },
      { entityId: 'asset-1' },
      { filename: '' },
      { filename: 'x'.repeat(256) },
      { mimeType: 'x'.repeat(201) },
      { bucket: 'photos' },
    ]) {
      const response = await initiate(foreman, overrides);
      expect(response.status, JSON.stringify(overrides)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await initiate(foreman, { entityType: `a.${'x'.repeat(98)}`, filename: 'x'.repeat(255), mimeType: 'x'.repeat(200) })).status,
    ).toBe(201);
  });

  it('lets Engineer, Mechanic, Foreman and CEO upload and any member read a download address; Admin may not upload', async () => {
    expect((await initiate(mechanic)).body.document.bucket).toBe('documents');
    const refused = await initiate(admin);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ROLE_FORBIDDEN');
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.from('readable'));
    await confirm(id, {}, await login(stack, demoEmail('CEO')));
    const supply = await login(stack, demoEmail('Supply'));
    expect((await downloadAddress(id, supply)).status).toBe(200);
    expect((await downloadAddress(id, await login(stack, demoEmail('OtibSpecialist')))).status).toBe(200);
  });

  it('gives the upload address over GraphQL as a path of this API', async () => {
    const response = await stack.graphql<{ coreInitiateDocumentUpload: { document: { status: string }; upload: { url: string } } }>(
      `mutation ($entityId: ID!) { coreInitiateDocumentUpload(entityType: "core.production-object", entityId: $entityId, filename: "a.txt") { document { status } upload { url } } }`,
      { entityId: objectId },
      { authorization: `Bearer ${foreman.token}`, 'idempotency-key': randomUUID() },
    );
    expect(response.body.data?.coreInitiateDocumentUpload.document.status).toBe('pending');
    const path = response.body.data!.coreInitiateDocumentUpload.upload.url;
    expect(path.startsWith('/api/v1/core/documents/uploads/')).toBe(true);
    expect((await put(`${stack.url}${path}`, Buffer.from('via graphql'))).status).toBe(200);
  });
});
