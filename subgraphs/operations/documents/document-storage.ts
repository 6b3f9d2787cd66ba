import type { Config } from '../../../runtime/config.js';
import type { HealthCheck } from '../../shared/health.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { ClamdScanner } from './clamd-scanner.js';
import { LocalObjectStore } from './local-object-store.js';
import type { ObjectStore } from './object-store.js';
import { S3ObjectStore } from './s3-object-store.js';
import { UrlSigner } from './signed-url.js';
import { BuiltInScanner, type VirusScanner } from './virus-scanner.js';

export interface DocumentStorage {
  readonly store: ObjectStore;
  /** The local store when it is the one in use (its addresses are our routes). */
  readonly local: LocalObjectStore | undefined;
  readonly signer: UrlSigner;
  readonly scanner: VirusScanner;
  /** Readiness components: the object store (local directory or S3 bucket) and the virus scanner. */
  readonly checks: Readonly<Record<string, HealthCheck>>;
}

/** What the local store's address key is derived for, from the secrets key. */
export const ADDRESS_KEY_PURPOSE = 'qantara document addresses v1';

/** The object store and virus scanner the configuration names (S3 and clamd when set, else the built-in ones). */
export function documentStorage(config: Config, secrets: SecretBox): DocumentStorage {
  const signer = new UrlSigner(secrets.derive(ADDRESS_KEY_PURPOSE));
  const local = config.s3 ? undefined : new LocalObjectStore(config.dataDir, signer, config.publicBaseUrl ?? '');
  const store = config.s3 ? new S3ObjectStore(config.s3) : local!;
  const scanner: VirusScanner = config.clamdUrl ? new ClamdScanner(config.clamdUrl) : new BuiltInScanner();
  const checks: Record<string, HealthCheck> = {
    objectStorage: () => store.check(),
    virusScanner: () => scanner.check(),
  };
  return { store, local, signer, scanner, checks };
}
