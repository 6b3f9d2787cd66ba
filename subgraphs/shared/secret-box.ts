import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets at rest (signing keys, second-factor secrets) sealed with AES-256-GCM under
 * `SECRETS_KEY`, or under a key generated once into `DATA_DIR/secrets.key` (mode 0600)
 * when unset — every process of a distributed run must then share `SECRETS_KEY`.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromConfig(config: { readonly secretsKey: string | undefined; readonly dataDir: string }): SecretBox {
    if (config.secretsKey) {
      const raw = config.secretsKey;
      return new SecretBox(/^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64'));
    }
    return new SecretBox(keyFile(join(config.dataDir, 'secrets.key')));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** A key of its own for one purpose (e.g. signing addresses), derived so the secrets key never leaves the box. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), purpose, 32));
  }

  unseal(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('not a sealed secret');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The generated key, created exclusively so concurrent first starts agree on one. */
function keyFile(path: string): Buffer {
  try {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(join(path, '..'), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
}
