import {
  coreDeadLetters,
  coreDeleteDeadLetter,
  coreRetryDeadLetter,
  coreSagaEvents,
  coreSagaQueues,
  coreSagaStatus,
  coreSagaWatch,
} from '../../../contracts/operations/sagas.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { SagasService } from './sagas.service.js';

/** Saga progress and dead letters (each saga started over REST is bound by the module that owns it). */
export function sagaOperations(services: Services): Implementation[] {
  const sagas = services.get(SagasService);
  return [
    implement(coreSagaStatus, (input, { ctx }) => sagas.status(ctx.em, input.sagaId)),
    implement(coreSagaEvents, (input, { ctx }) => sagas.events(ctx.em, input.sagaId, input.afterSequence, input.limit)),
    implement(coreSagaWatch, (input, { ctx }) => sagas.watch(ctx.em, input.sagaId)),
    implement(coreDeadLetters, (input, { ctx }) => sagas.deadLetters(ctx.em, input.limit)),
    implement(coreSagaQueues, () => sagas.queueCounts()),
    implement(coreRetryDeadLetter, (input, { ctx, caller }) => sagas.retry(ctx.em, caller, input.queue, input.jobId)),
    implement(coreDeleteDeadLetter, (input, { ctx, caller }) => sagas.remove(ctx.em, caller, input.queue, input.jobId)),
  ];
}
