import {
  coreDeadLetters,
  coreDeleteDeadLetter,
  coreRetryDeadLetter,
  coreSagaEvents,
  coreSagaQueues,
  coreSagaStatus,
  coreSagaWatch,
  eamStartAssetDecommissionSaga,
} from '../../../contracts/operations/sagas.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { assetDecommissionSaga } from '../eam/decommission-saga.js';
import { AssetService } from '../eam/asset.service.js';
import { SagaEngine } from './engine.js';
import { SagasService } from './sagas.service.js';

/** Saga progress, dead letters, and the sagas started over REST. */
export function sagaOperations(services: Services): Implementation[] {
  const sagas = services.get(SagasService);
  const engine = services.get(SagaEngine);
  const assets = services.get(AssetService);
  return [
    implement(coreSagaStatus, (input, { ctx }) => sagas.status(ctx.em, input.sagaId)),
    implement(coreSagaEvents, (input, { ctx }) => sagas.events(ctx.em, input.sagaId, input.afterSequence, input.limit)),
    implement(coreSagaWatch, (input, { ctx }) => sagas.watch(ctx.em, input.sagaId)),
    implement(coreDeadLetters, (input, { ctx }) => sagas.deadLetters(ctx.em, input.limit)),
    implement(coreSagaQueues, () => sagas.queueCounts()),
    implement(coreRetryDeadLetter, (input, { ctx, caller }) => sagas.retry(ctx.em, caller, input.queue, input.jobId)),
    implement(coreDeleteDeadLetter, (input, { ctx, caller }) => sagas.remove(ctx.em, caller, input.queue, input.jobId)),
    implement(eamStartAssetDecommissionSaga, async (input, { ctx, caller }) => {
      await assets.checkDecommission(ctx.em, caller, input.assetId, input.coApprovedBy);
      const { sagaId } = await engine.start(ctx.em, assetDecommissionSaga, {
        organizationId: caller.organizationId!,
        actorId: caller.userId,
        payload: { assetId: input.assetId, coApprovedBy: input.coApprovedBy, reason: input.reason },
        entityType: 'Asset',
        entityId: input.assetId,
      });
      return { sagaId, assetId: input.assetId, status: 'enqueued' as const };
    }),
  ];
}
