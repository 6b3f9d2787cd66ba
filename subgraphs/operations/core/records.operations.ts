import { coreAuditHistory, coreTrashEntities, coreTrashRestore, coreTrashRows } from '../../../contracts/operations/records.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { AuditService } from './audit.service.js';
import { TrashService } from './trash.service.js';

/** The audit log and the trash. */
export function recordOperations(services: Services): Implementation[] {
  const audit = services.get(AuditService);
  const trash = services.get(TrashService);
  return [
    implement(coreAuditHistory, (input, { ctx }) => audit.history(ctx.em, input)),
    implement(coreTrashEntities, () => trash.names()),
    implement(coreTrashRows, (input, { ctx }) => trash.rows(ctx.em, input.entity, input.limit)),
    implement(coreTrashRestore, (input, { ctx }) => trash.restore(ctx.em, input.entity, input.id)),
  ];
}
