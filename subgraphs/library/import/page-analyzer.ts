/**
 * Analyses an import's pages, in a worker thread once the import is large enough to be worth one
 * and the machine has a second core: the worker analyses a batch while this thread parses the next
 * lines and PostgreSQL stores the previous batch. Results come back in the order batches were sent;
 * a small import (or a one-core machine) analyses in this thread, as does a worker that failed.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { analysePage, type AnalysedPage } from './page-analysis.js';

/** Pages analysed in this thread before a worker is started (a small upload never pays for one). */
const WORKER_AFTER_PAGES = 1000;

export interface PageAnalyzer {
  analyse(texts: readonly string[]): Promise<AnalysedPage[]>;
  /** Pages the worker thread has analysed so far. */
  readonly pagesInWorker: number;
  close(): Promise<void>;
}

export interface AnalyzerOptions {
  /** Whether a worker thread may be used (default: when the machine has a second core). */
  readonly threads?: boolean;
  /** Pages analysed in this thread before the worker is started. */
  readonly workerAfterPages?: number;
}

type Pending = { resolve: (pages: AnalysedPage[]) => void; reject: (error: unknown) => void };

/**
 * The worker's module beside this one: from the build (`dist/`) as it is; from the sources through
 * tsx's loader, registered in the worker itself, so it starts the same way under `node --import tsx`,
 * the `tsx` command and the test runner.
 */
function startWorker(): Worker {
  if (import.meta.url.endsWith('.js')) return new Worker(new URL('./page-analysis.worker.js', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx/esm/api');
  const module = new URL('./page-analysis.worker.ts', import.meta.url).href;
  const source = `require(${JSON.stringify(tsx)}).register(); import(${JSON.stringify(module)});`;
  return new Worker(source, { eval: true, execArgv: [] });
}

/** A Buffer over a received byte array (structured clone delivers a plain Uint8Array). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

class ThreadedAnalyzer implements PageAnalyzer {
  private worker: Worker | null = null;
  private ready = false;
  private failed = false;
  private seen = 0;
  private sequence = 0;
  private readonly pending = new Map<number, Pending>();
  pagesInWorker = 0;

  constructor(
    private readonly threads: boolean,
    private readonly workerAfterPages: number,
  ) {}

  async analyse(texts: readonly string[]): Promise<AnalysedPage[]> {
    this.seen += texts.length;
    if (this.threads && !this.worker && !this.failed && this.seen > this.workerAfterPages) this.start();
    if (!this.ready) return texts.map(analysePage);
    const id = ++this.sequence;
    this.pagesInWorker += texts.length;
    return new Promise<AnalysedPage[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // The worker keeps the process alive only while it owes a batch.
      this.worker!.ref();
      this.worker!.postMessage({ id, texts });
    });
  }

  private start(): void {
    const worker = startWorker();
    this.worker = worker;
    worker.unref();
    worker.on('message', (message: { ready?: true; id?: number; pages?: AnalysedPage[] }) => {
      if (message.ready) {
        this.ready = true;
        return;
      }
      const waiting = this.pending.get(message.id!);
      this.pending.delete(message.id!);
      if (this.pending.size === 0) worker.unref();
      waiting?.resolve(message.pages!.map((page) => ({ ...page, tsvector: asBuffer(page.tsvector) })));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error('the page analysis worker stopped')));
  }

  /** A worker that fails before it is ready is given up for this thread; one that fails later fails its batches. */
  private fail(error: unknown): void {
    this.failed = true;
    this.ready = false;
    this.worker = null;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    this.failed = true;
    if (worker) await worker.terminate();
  }
}

/** An analyzer for one import. */
export function openPageAnalyzer(options: AnalyzerOptions = {}): PageAnalyzer {
  return new ThreadedAnalyzer(options.threads ?? availableParallelism() >= 2, options.workerAfterPages ?? WORKER_AFTER_PAGES);
}
