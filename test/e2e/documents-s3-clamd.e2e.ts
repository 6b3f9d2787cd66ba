import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/config.js';
import { ClamdScanner } from '../../subgraphs/operations/documents/clamd-scanner.js';
import { EICAR } from '../../subgraphs/operations/documents/virus-scanner.js';
import { call, demoEmail, idempotencyKey, login, OPERATIONS_ENV, type Session } from '../support/operations.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Documents with the real components: an S3-protocol server (s3rver) on loopback as the
 * object store and Debian's ClamAV daemon as the scanner, with a signature database this
 * test writes itself (the EICAR test file's bytes), as no signature can be downloaded.
 */

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverServer;

const CLAMD = process.env.CLAMD_PATH ?? '/usr/sbin/clamd';
const BUCKET = 'qantara-documents';
const SIGNATURE = 'Qantara.Test.EICAR';

let dir: string;
let s3: S3rverServer;
let s3Url: string;
let clamdPort: number;
let clamd: ChildProcess | undefined;
let stack: TestStack;
let engineer: Session;
let ceo: Session;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** clamd with one signature — the EICAR bytes as an extended (.ndb) signature — answering PING before this returns. */
async function startClamd(): Promise<void> {
  const database = join(dir, 'signatures');
  mkdirSync(database, { recursive: true });
  writeFileSync(join(database, 'qantara-test.ndb'), `${SIGNATURE}:0:*:${EICAR.toString('hex')}\n`);
  const config = join(dir, 'clamd.conf');
  writeFileSync(
    config,
    [
      `DatabaseDirectory ${database}`,
      `TCPSocket ${clamdPort}`,
      'TCPAddr 127.0.0.1',
      'Foreground yes',
      `LogFile ${join(dir, 'clamd.log')}`,
    ].join('\n'),
  );
  clamd = spawn(CLAMD, [`--config-file=${config}`], { stdio: 'ignore' });
  const scanner = new ClamdScanner(`tcp://127.0.0.1:${clamdPort}`, 2000);
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (
      await scanner.check().then(
        (state) => state.up,
        () => false,
      )
    )
      return;
    if (clamd.exitCode !== null) throw new Error(`clamd exited with ${clamd.exitCode}; see ${join(dir, 'clamd.log')}`);
    await sleep(100);
  }
  throw new Error('clamd did not answer PING within 60 s');
}

async function stopClamd(): Promise<void> {
  if (!clamd || clamd.exitCode !== null) return;
  const exited = once(clamd, 'exit');
  clamd.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qantara-s3-clamd-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET }] });
  s3Url = `http://127.0.0.1:${(await s3.run()).port}`;
  clamdPort = await freePort();
  await startClamd();
  stack = await startStack({
    ...OPERATIONS_ENV,
    DATA_DIR: join(dir, 'data'),
    S3_ENDPOINT: s3Url,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    CLAMD_URL: `tcp://127.0.0.1:${clamdPort}`,
  });
  [engineer, ceo] = await Promise.all([login(stack, demoEmail('Engineer')), login(stack, demoEmail('CEO'))]);
});
afterAll(async () => {
  await stack?.stop();
  await stopClamd();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function started(overrides: Record<string, unknown> = {}): Promise<{ id: string; uploadUrl: string }> {
  const body = {
    entityType: 'hse.incident',
    entityId: randomUUID(),
    filename: 'photo.jpg',
    mimeType: 'image/jpeg',
    bucket: 'hse-photos',
    ...overrides,
  };
  const response = await call(stack, engineer, 'POST', '/api/v1/core/documents', body, idempotencyKey());
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.document.id, uploadUrl: response.body.upload.url };
}

const put = (url: string, body: Uint8Array) => fetch(url, { method: 'PUT', body });
const confirm = (id: string, body: Record<string, unknown> = {}) =>
  call(stack, ceo, 'POST', `/api/v1/core/documents/${id}/confirm`, body, idempotencyKey());

describe('with an S3-compatible store and clamd', () => {
  it('reports object storage and the virus scanner in readiness', async () => {
    const ready = await stack.fetch('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { details: unknown }).details).toMatchObject({
      objectStorage: { status: 'up' },
      virusScanner: { status: 'up' },
    });
  });

  it('uploads to a presigned S3 address by plain HTTP, confirms after a clean scan, and downloads from a presigned address', async () => {
    const file = randomBytes(300_000);
    const { id, uploadUrl } = await started({ filename: 'Фото 1.jpg' });
    expect(uploadUrl.startsWith(`${s3Url}/${BUCKET}/uploads/hse-photos/`)).toBe(true);
    expect(new URL(uploadUrl).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect((await put(uploadUrl, file)).status).toBe(200);
    const confirmed = await confirm(id, { sha256: sha256(file) });
    expect(confirmed.body).toMatchObject({ id, status: 'ready', size: file.length, sha256: sha256(file) });
    const address = await call(stack, engineer, 'GET', `/api/v1/core/documents/${id}/download`);
    expect(address.body.url.startsWith(`${s3Url}/${BUCKET}/stored/hse-photos/`)).toBe(true);
    const downloaded = await fetch(address.body.url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('image/jpeg');
    expect(downloaded.headers.get('content-disposition')).toContain(encodeURIComponent('Фото 1.jpg'));
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(file)).toBe(true);
  });

  it('has clamd refuse the EICAR file: 422 naming the signature, the object deleted, the document never ready', async () => {
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.concat([randomBytes(100_000), EICAR]));
    const infected = await confirm(id);
    expect(infected.status).toBe(422);
    expect(infected.body.code).toBe('DOCUMENT_INFECTED');
    expect(infected.body.detail).toContain(SIGNATURE);
    expect((await confirm(id)).body.code).toBe('DOCUMENT_NOT_UPLOADED');
    expect((await call(stack, engineer, 'GET', `/api/v1/core/documents/${id}/download`)).body.code).toBe('DOCUMENT_NOT_READY');
  });

  it('refuses a wrong sha256 and a confirmation before the upload', async () => {
    const { id, uploadUrl } = await started();
    expect((await confirm(id)).body.code).toBe('DOCUMENT_NOT_UPLOADED');
    await put(uploadUrl, Buffer.from('inspection photo'));
    const wrong = await confirm(id, { sha256: '0'.repeat(64) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('DOCUMENT_CHECKSUM_MISMATCH');
    expect((await confirm(id, { sha256: sha256(Buffer.from('inspection photo')) })).body.status).toBe('ready');
  });

  it('answers 503 DOCUMENT_SCAN_UNAVAILABLE while clamd is down, reports it in readiness, and confirms once it is back', async () => {
    const { id, uploadUrl } = await started();
    await put(uploadUrl, Buffer.from('waiting for the scanner'));
    await stopClamd();
    const unavailable = await confirm(id);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.code).toBe('DOCUMENT_SCAN_UNAVAILABLE');
    const ready = await stack.fetch('/api/v1/health/ready');
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: Record<string, unknown> }).error).toHaveProperty('virusScanner');
    await startClamd();
    expect((await confirm(id)).body).toMatchObject({ status: 'ready', size: 23 });
  });
});

describe('configuration', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      return error instanceof ConfigError ? error.message : String(error);
    }
    return 'accepted';
  };

  it('takes S3 settings together and clamd as tcp://host:port, naming the variable otherwise', () => {
    const s3Env = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig(s3Env).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'docs',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(refusal({ S3_BUCKET: 'docs' })).toBe('S3_BUCKET is set but S3_ENDPOINT is not');
    expect(refusal({ ...s3Env, S3_SECRET_ACCESS_KEY: '' })).toBe('S3_SECRET_ACCESS_KEY is required when S3_ENDPOINT is set');
    expect(refusal({ ...s3Env, S3_BUCKET: 'Bad_Bucket' })).toMatch(/^S3_BUCKET must be a bucket name/);
    expect(refusal({ ...s3Env, S3_ENDPOINT: 'ftp://store' })).toMatch(/^S3_ENDPOINT must use http or https/);
    expect(loadConfig({ CLAMD_URL: 'tcp://127.0.0.1:3310' }).clamdUrl).toBe('tcp://127.0.0.1:3310');
    expect(refusal({ CLAMD_URL: 'http://127.0.0.1:3310' })).toMatch(/^CLAMD_URL must use tcp/);
    expect(loadConfig({}).s3).toBeUndefined();
  });
});
