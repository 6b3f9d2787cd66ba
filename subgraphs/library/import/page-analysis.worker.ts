/** The import's analysis thread: analyses batches of page texts for `page-analyzer.ts`. */
import { parentPort } from 'node:worker_threads';
import { analysePage } from './page-analysis.js';

parentPort!.on('message', (message: { id: number; texts: readonly string[] }) => {
  parentPort!.postMessage({ id: message.id, pages: message.texts.map(analysePage) });
});
parentPort!.postMessage({ ready: true });
