import { loadavg } from 'node:os';
import { foundationBench } from './foundation.js';
import { gatewayPeersBench } from './gateway-peers.js';
import { operationsCoreBench } from './operations-core.js';
import { libraryAuthBench } from './library-auth.js';
import { libraryChatBench } from './library-chat.js';
import { libraryQualityBench } from './library-quality.js';
import { libraryRetrievalBench } from './library-retrieval.js';
import { libraryScaleBench } from './library-scale.js';
import { type BenchModule, writeSection } from './report.js';
import { researchChatBench } from './research-chat.js';
import { restHotPathBench } from './rest-hot-path.js';
import { sagasBench, sagasSpreadBench } from './sagas.js';

/** Every benchmark; `npm run bench -- <name>…` runs only those named. */
const MODULES: readonly BenchModule[] = [
  foundationBench,
  libraryAuthBench,
  libraryRetrievalBench,
  libraryScaleBench,
  libraryQualityBench,
  libraryChatBench,
  researchChatBench,
  operationsCoreBench,
  sagasBench,
  sagasSpreadBench,
  gatewayPeersBench,
  restHotPathBench,
];

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const selected = wanted.length ? MODULES.filter((module) => wanted.includes(module.name)) : MODULES;
if (wanted.length && selected.length !== wanted.length) {
  process.stderr.write(`bench: unknown benchmark; known: ${MODULES.map((module) => module.name).join(', ')}\n`);
  process.exit(2);
}
for (const module of selected) {
  process.stdout.write(`bench: ${module.name}…\n`);
  const load = loadavg()[0]!;
  const body = await module.run();
  writeSection(module, body, load);
  process.stdout.write(`${body}\n\n`);
}
process.exit(0);
