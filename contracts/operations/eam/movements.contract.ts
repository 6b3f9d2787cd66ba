import { members } from '../../access.js';
import { defineOperation } from '../../operation.js';
import { cursorPaging, ops } from '../fields.js';
import { Movement, MovementOp, MovementStatus } from './types.js';

/** The movements journal (seed 002, Movements journal (EAM)). */

export const eamListMovements = defineOperation({
  service: 'operations',
  name: 'eamListMovements',
  kind: 'query',
  summary: 'Movements journal',
  description:
    'Newest first. `objectId` matches the from or the to object; `dateFrom`/`dateTo` bound `occurredAt` (inclusive, exclusive). Foremen see movements touching their objects; Mechanics see every object’s.',
  tags: ['eam: movements'],
  access: members(['CEO', 'Engineer', 'Foreman', 'Mechanic', 'Admin'], { exempt: ['Mechanic'] }),
  input: {
    query: {
      assetId: ops.id().optional(),
      objectId: ops.id().optional(),
      op: MovementOp.optional(),
      status: MovementStatus.optional(),
      dateFrom: ops.dateTime().optional(),
      dateTo: ops.dateTime().optional(),
    },
  },
  output: Movement,
  paging: cursorPaging(200, 50),
  rest: { method: 'GET', path: '/api/v1/eam/movements' },
});
