import type { RequestHeaders } from '../subgraphs/shared/context.js';
import type { StreamOpening, StreamRequest } from '../subgraphs/shared/streams.js';

/**
 * Where a subgraph's streaming operations run — the streaming counterpart of a
 * GraphQL data source: in this process, or behind the subgraph's `POST /streams/<name>`.
 */
export interface StreamSource {
  open(request: StreamRequest, headers: RequestHeaders, signal: AbortSignal): Promise<StreamOpening>;
}
