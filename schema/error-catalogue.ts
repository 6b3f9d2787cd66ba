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

export function errorCatalogueDocument(): string {
  const sections = SECTIONS.map(([namespace, title]) => {
    const rows = errorCatalogue([namespace]).map((entry) => `| \`${entry.code}\` | ${entry.status} | ${entry.description} |`);
    return [`## ${title}`, '', '| code | status | meaning |', '| --- | --- | --- |', ...(rows.length ? rows : ['| — | | none yet |'])].join(
      '\n',
    );
  });
  return `# Error codes\n\nGenerated from the error registry (\`contracts/errors.ts\` and each service's \`errors.ts\`) by \`npm run schema:print\`; \`npm run schema:check\` fails when it is stale. The same catalogue is in each service's OpenAPI description as \`x-error-codes\`.\n\nA refusal of invalid input (422) lists at most 100 problems, in its family's list (\`errors\`, \`details\` or \`detail\`). When there were more it says so beside that list: \`errorCount\` (how many there were) and \`truncated: true\`; a Problem carries them as extension members, GraphQL in \`extensions\`, MCP in the tool error.\n\n${sections.join('\n\n')}\n`;
}
