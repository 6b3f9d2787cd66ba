import { hostname } from 'node:os';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '../../../runtime/logger.js';
import { createQueueBackend, type AnyQueue, type AnyWorker, type QueueBackend, type QueueBackendOptions } from './queue-backend.js';

/**
 * The queues of one subgraph in one process (docs/adr/0014-research-service.md, "Queues").
 * A module declares its queues (`QueueSpec`) and, for those it consumes, a consumer;
 * any process may add jobs, but consumers run only in processes that run background work —
 * `ROLE=worker`, and the default process (`all`) unless `QUEUE_CONSUMERS=false` — and start
 * after the module's start-up work. Jobs carry an id chosen by the producer, so adding the
 * same work twice queues it once; each job names the process that ran it (BullMQ's
 * `processedBy`: `<host>:<pid>`).
 */

export interface QueueSpec {
  readonly name: string;
  /** Tries per job, the first included. */
  readonly attempts: number;
  /** First retry delay; doubled on each retry. */
  readonly backoffMs: number;
  /**
   * How long a running job's lock lasts without renewal (default 30 s): a job whose process
   * died is taken up again by another worker after about this long.
   */
  readonly lockMs?: number;
  /** How many times a job may be taken up again after its process died before it fails (default 1). */
  readonly maxStalled?: number;
}

/** A job that used up its attempts (a dead letter). */
export interface FailedJob {
  readonly id: string;
  readonly data: unknown;
  readonly attemptsMade: number;
  readonly failedReason: string;
  readonly failedAt: Date | null;
}

export interface JobFacts {
  readonly id: string;
  /** 1 on the first try. */
  readonly attempt: number;
  readonly attempts: number;
}

export interface QueueConsumer<T> {
  readonly concurrency: number;
  /** Runs one job; a throw retries it until its attempts are spent (an `UnrecoverableError` at once). */
  readonly process: (data: T, job: JobFacts) => Promise<void>;
  /** Runs once after the last attempt failed (e.g. to refund); the job then stays failed. */
  readonly exhausted?: (data: T, error: unknown, job: JobFacts) => Promise<void>;
  /**
   * Work that should be queued: an add lost between a commit and the queue (a crash, the
   * queue unreachable) is queued again at start and every `recoverEveryMs`.
   */
  readonly recover?: () => Promise<ReadonlyArray<{ readonly id: string; readonly data: T }>>;
  /**
   * Whether recovery also runs again a job of a recovered id that already finished (completed or
   * failed): for work whose job ids are reused, where a finished job does not mean finished work.
   */
  readonly rerunFinished?: boolean;
}

export type JobCounts = Readonly<Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed', number>>;

/** The name a process's workers stamp on the jobs they take (`processedBy`). */
export const workerName = (): string => `${hostname()}:${process.pid}`;

export interface QueueHubOptions extends Omit<QueueBackendOptions, 'poolMax'> {
  /** Whether this process runs the declared consumers (`Config.queueConsumers`). */
  readonly consumers: boolean;
  readonly logger: Logger;
  /** How often consumers re-queue work that should be queued (default 30 s). */
  readonly recoverEveryMs?: number;
}

interface Registered {
  readonly spec: QueueSpec;
  readonly consumer: QueueConsumer<unknown>;
}

export class QueueHub {
  private readonly backend: QueueBackend;
  private readonly queues = new Map<string, AnyQueue>();
  private readonly consumers = new Map<string, Registered>();
  private readonly workers: AnyWorker[] = [];
  private prepared: Promise<void> | undefined;
  private recovery: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: QueueHubOptions) {
    this.backend = createQueueBackend({ ...options, poolMax: 10 });
  }

  /** Whether this process runs consumers. */
  get consuming(): boolean {
    return this.options.consumers;
  }

  get backendKind(): QueueBackend['kind'] {
    return this.backend.kind;
  }

  private prepare(): Promise<void> {
    this.prepared ??= this.backend.prepare().catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }

  private queue(spec: QueueSpec): AnyQueue {
    let queue = this.queues.get(spec.name);
    if (!queue) {
      queue = this.backend.queue(spec.name, {
        defaultJobOptions: {
          attempts: spec.attempts,
          backoff: { type: 'exponential', delay: spec.backoffMs },
          removeOnComplete: { count: 1000 },
          removeOnFail: { count: 5000 },
        },
      });
      queue.on('error', (error) => this.report(error, spec.name, 'queue error'));
      this.queues.set(spec.name, queue);
    }
    return queue;
  }

  /** Queues one job under a stable id (a second add of the same id is a no-op while the first is kept). */
  async add<T>(spec: QueueSpec, id: string, data: T): Promise<void> {
    if (this.closed) throw new Error(`queue ${spec.name}: the hub is closed`);
    await this.prepare();
    await this.queue(spec).add(spec.name, data, { jobId: id });
  }

  /**
   * Makes sure a job with this id will run: added when absent, run again when it finished
   * (completed or failed) — for work re-queued under the same id — left alone while it waits or runs.
   */
  async ensure<T>(spec: QueueSpec, id: string, data: T): Promise<void> {
    await this.prepare();
    const queue = this.queue(spec);
    const job = await queue.getJob(id);
    if (!job) return void (await queue.add(spec.name, data, { jobId: id }));
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
  }

  /** Failed jobs of a queue, newest first, at most `limit` (and whether there were more). */
  async failed(spec: QueueSpec, limit: number): Promise<{ jobs: FailedJob[]; truncated: boolean }> {
    await this.prepare();
    const jobs = await this.queue(spec).getFailed(0, limit);
    return {
      jobs: jobs.slice(0, limit).map((job) => ({
        id: String(job.id),
        data: job.data,
        attemptsMade: job.attemptsMade,
        failedReason: job.failedReason ?? '',
        failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
      })),
      truncated: jobs.length > limit,
    };
  }

  /** A failed job, or undefined when there is no failed job of that id. */
  async failedJob(spec: QueueSpec, id: string): Promise<FailedJob | undefined> {
    await this.prepare();
    const job = await this.queue(spec).getJob(id);
    if (!job || (await job.getState()) !== 'failed') return undefined;
    return {
      id: String(job.id),
      data: job.data,
      attemptsMade: job.attemptsMade,
      failedReason: job.failedReason ?? '',
      failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
    };
  }

  /** Moves a failed job back to waiting with its attempts reset; false when it is not a failed job. */
  async retryFailed(spec: QueueSpec, id: string): Promise<boolean> {
    await this.prepare();
    const job = await this.queue(spec).getJob(id);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  /** Deletes a failed job for good; false when it is not a failed job. */
  async removeFailed(spec: QueueSpec, id: string): Promise<boolean> {
    await this.prepare();
    const job = await this.queue(spec).getJob(id);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.remove();
    return true;
  }

  /** Job counts of a queue, as BullMQ keeps them. */
  async counts(spec: QueueSpec): Promise<JobCounts> {
    await this.prepare();
    const counts = await this.queue(spec).getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    return {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  /** Declares the consumer of a queue; it runs once `start` is called in a consuming process. */
  consume<T>(spec: QueueSpec, consumer: QueueConsumer<T>): void {
    if (this.consumers.has(spec.name)) throw new Error(`queue ${spec.name} has two consumers`);
    this.consumers.set(spec.name, { spec, consumer: consumer as QueueConsumer<unknown> });
  }

  /** Starts the declared consumers (in consuming roles only) and their recovery. */
  async start(): Promise<void> {
    if (!this.consuming || this.consumers.size === 0) return;
    await this.prepare();
    for (const { spec, consumer } of this.consumers.values()) {
      const worker = this.backend.worker(spec.name, (job) => this.run(spec, consumer, job), {
        concurrency: consumer.concurrency,
        name: workerName(),
        ...(spec.lockMs ? { lockDuration: spec.lockMs, stalledInterval: Math.max(1000, Math.floor(spec.lockMs / 2)) } : {}),
        ...(spec.maxStalled ? { maxStalledCount: spec.maxStalled } : {}),
      });
      worker.on('error', (error) => this.report(error, spec.name, 'worker error'));
      this.workers.push(worker);
    }
    await this.recover();
    this.recovery = setInterval(() => void this.recover(), this.options.recoverEveryMs ?? 30_000);
    this.recovery.unref();
    this.options.logger.info({ backend: this.backend.kind, queues: [...this.consumers.keys()] }, 'queue consumers started');
  }

  private async run(spec: QueueSpec, consumer: QueueConsumer<unknown>, job: Job): Promise<void> {
    const attempts = job.opts.attempts ?? spec.attempts;
    const facts = { id: String(job.id), attempt: job.attemptsMade + 1, attempts };
    try {
      await consumer.process(job.data, facts);
    } catch (error) {
      if ((facts.attempt >= attempts || error instanceof UnrecoverableError) && consumer.exhausted) {
        await consumer.exhausted(job.data, error, facts).catch((failure: unknown) => {
          this.options.logger.error({ err: failure, queue: spec.name, job: facts.id }, 'could not settle an exhausted job');
        });
      }
      throw error;
    }
  }

  private async recover(): Promise<void> {
    for (const { spec, consumer } of this.consumers.values()) {
      if (!consumer.recover || this.closed) continue;
      try {
        for (const job of await consumer.recover()) {
          await (consumer.rerunFinished ? this.ensure(spec, job.id, job.data) : this.add(spec, job.id, job.data));
        }
      } catch (error) {
        this.options.logger.warn({ err: error, queue: spec.name }, 'queue recovery failed');
      }
    }
  }

  /** Stops consumers (letting running jobs finish for up to `graceMs`), then the queues and the connection. */
  /** A queue's or worker's error; once the hub closes, the connections it loses as the database stops are expected. */
  private report(error: unknown, queue: string, what: string): void {
    if (this.closed) this.options.logger.debug({ err: error, queue }, what);
    else this.options.logger.warn({ err: error, queue }, what);
  }

  async close(graceMs = 5_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.recovery);
    await Promise.all(
      this.workers.map(async (worker) => {
        let timer: NodeJS.Timeout | undefined;
        const forced = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([worker.close(), forced.then(() => worker.close(true))]);
        clearTimeout(timer);
      }),
    );
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    await this.backend.close();
  }
}
