import {
  coreConfirmDocumentUpload,
  coreDocumentContent,
  coreDocumentDownload,
  coreDocumentUploadContent,
  coreInitiateDocumentUpload,
} from '../../../contracts/operations/documents/documents.contract.js';
import { implement, implementStream, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { DocumentFilesService } from './document-files.service.js';
import { DocumentsService } from './documents.service.js';

/** Documents, and the local store's upload and download routes (one event each: the result). */
export function documentOperations(services: Services): Implementation[] {
  const documents = services.get(DocumentsService);
  const files = services.get(DocumentFilesService);
  return [
    implement(coreInitiateDocumentUpload, (input, { ctx, caller }) => documents.initiate(ctx.em, caller, input)),
    implement(coreConfirmDocumentUpload, (input, { ctx, caller }) => documents.confirm(ctx.em, caller, input.id, input.sha256)),
    implement(coreDocumentDownload, (input, { ctx }) => documents.downloadAddress(ctx.em, input.id)),
    implementStream(coreDocumentUploadContent, async function* (input, _call, _signal, body) {
      yield await files.upload(input.token, body);
    }),
    implementStream(coreDocumentContent, async function* (input) {
      yield await files.content(input.token);
    }),
  ];
}
