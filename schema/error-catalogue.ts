import { errorCatalogue, type ErrorNamespace } from '../contracts/errors.js';

/** `docs/errors.md`: every registered code, by the service (namespace) that owns it; generated, never edited. */

const SECTIONS: ReadonlyArray<readonly [ErrorNamespace, string]> = [
  ['library', 'Library (`/v1`, `/admin`): in `error.code` (and the admin `detail`)'],
  ['research', 'Research: in `code`'],
  ['operations', 'Operations (`/api/v1`): in the Problem’s `code`'],
  ['common', 'Common to every service (the library writes them in lower case)'],
  ['edge', 'Answered by the HTTP edge before any service runs'],
  ['graphql', 'GraphQL (`extensions.code` on `/graphql`)'],
];

/** Namespaces whose codes reach the wire in an operations Problem, whose `title` is the code's title. */
const PROBLEM_NAMESPACES: ReadonlySet<ErrorNamespace> = new Set(['operations', 'common', 'edge']);

export function errorCatalogueDocument(): string {
  const sections = SECTIONS.map(([namespace, title]) => {
    const titled = PROBLEM_NAMESPACES.has(namespace);
    const rows = errorCatalogue([namespace]).map(
      (entry) => `| \`${entry.code}\` | ${entry.status} |${titled ? ` ${entry.title} |` : ''} ${entry.description} |`,
    );
    const head = titled
      ? ['| code | status | Problem title | meaning |', '| --- | --- | --- | --- |']
      : ['| code | status | meaning |', '| --- | --- | --- |'];
    return [`## ${title}`, '', ...head, ...(rows.length ? rows : [titled ? '| — | | | none yet |' : '| — | | none yet |'])].join('\n');
  });
  return `# Error codes\n\nGenerated from the error registry (\`contracts/errors.ts\` and each service's \`errors.ts\`) by \`npm run schema:print\`; \`npm run schema:check\` fails when it is stale. The same catalogue is in each service's OpenAPI description as \`x-error-codes\`.\n\nA refusal of invalid input (422) lists at most 100 problems, in its family's list (\`errors\`, \`details\` or \`detail\`). When there were more it says so beside that list: \`errorCount\` (how many there were) and \`truncated: true\`; a Problem carries them as extension members, GraphQL in \`extensions\`, MCP in the tool error.\n\nAn operations Problem (RFC 9457) has \`type: about:blank\`; its \`title\` is the code's title below, the same for every occurrence, and \`detail\` explains this occurrence.\n\n${sections.join('\n\n')}\n`;
}
