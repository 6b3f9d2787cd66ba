import { blockText, escapeHtml, inlineText, page } from './html.js';

/** Just enough of OpenAPI 3.1 to render it. */
type Json = Record<string, unknown>;
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: Schema;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  additionalProperties?: Schema | boolean;
}
interface Operation {
  tags?: string[];
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, Json>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const anchor = (value: string) => value.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return `<a href="#schema-${anchor(refName(schema.$ref))}">${escapeHtml(refName(schema.$ref))}</a>`;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['any'];
  let text = types.map((type) => (type === 'array' ? `array of ${typeOf(schema.items)}` : escapeHtml(type))).join(' | ');
  if (schema.format) text += ` (${escapeHtml(schema.format)})`;
  if (schema.enum) text += `: ${schema.enum.map((value) => `<code>${escapeHtml(value)}</code>`).join(', ')}`;
  return text;
}

function constraints(schema: Schema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  if (schema.default !== undefined) parts.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  if (schema.minimum !== undefined) parts.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`maximum ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  return parts.join(', ');
}

function fieldsTable(schema: Schema): string {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return `<p>${typeOf(schema)}</p>`;
  const required = new Set(schema.required ?? []);
  const rows = properties.map(
    ([name, field]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeOf(field)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${inlineText(field.description ?? '')} ${constraints(field)}</td></tr>`,
  );
  return `<table><thead><tr><th>field</th><th>type</th><th>required</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function resolveResponse(doc: Json, response: Json): Json {
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  return ((doc.components as Json).responses as Record<string, Json>)[refName(ref)] ?? {};
}

function operationHtml(doc: Json, method: string, path: string, operation: Operation): string {
  const id = operation.operationId ?? `${method}-${path}`;
  const open = Array.isArray(operation.security) && operation.security.length === 0;
  const scheme = operation.security?.[0] ? Object.keys(operation.security[0])[0] : 'bearerKey';
  const auth = open
    ? 'none'
    : scheme === 'adminToken'
      ? 'header <code>x-admin-token</code>'
      : '<code>Authorization: Bearer &lt;key&gt;</code>';
  const parameters = operation.parameters?.length
    ? `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>required</th><th>meaning</th></tr></thead><tbody>${operation.parameters
        .map(
          (parameter) =>
            `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td><td>${typeOf(parameter.schema)}</td><td>${parameter.required ? 'yes' : 'no'}</td><td>${inlineText(parameter.description ?? '')} ${constraints(parameter.schema)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const body = bodySchema ? `<h4>Request body</h4><p>JSON ${typeOf(bodySchema)}</p>` : '';
  const responses = Object.entries(operation.responses ?? {}).map(([status, raw]) => {
    const response = resolveResponse(doc, raw);
    const content = Object.entries((response.content as Record<string, { schema?: Schema }>) ?? {});
    const bodies = content.map(([type, media]) => `${escapeHtml(type)} ${typeOf(media.schema)}`).join('<br>');
    const headers = Object.keys((response.headers as Json) ?? {}).length
      ? 'rate-limit headers' + ('Retry-After' in (response.headers as Json) ? ', <code>Retry-After</code>' : '')
      : '';
    return `<tr><td><strong>${escapeHtml(status)}</strong></td><td>${inlineText(String(response.description ?? ''))}</td><td>${bodies}</td><td>${headers}</td></tr>`;
  });
  return `<section class="card" id="op-${anchor(id)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${inlineText(operation.summary ?? '')}</strong>${operation.description ? ` — ${inlineText(operation.description)}` : ''}</p>
<p class="muted">Authentication: ${auth}</p>
${parameters}${body}
<h4>Responses</h4><table><thead><tr><th>status</th><th>meaning</th><th>body</th><th>headers</th></tr></thead><tbody>${responses.join('')}</tbody></table>
</section>`;
}

/** Renders the OpenAPI description as one self-contained HTML page, on the server. */
export function renderDocsPage(doc: Json): string {
  const info = doc.info as { title: string; version: string; description?: string };
  const paths = doc.paths as Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  const tags = (doc.tags as Array<{ name: string; description?: string }>) ?? [];
  const components = doc.components as { schemas: Record<string, Schema>; headers: Record<string, { description?: string }> };
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
  );
  const sections = tags.map((tag) => {
    const tagged = operations.filter((entry) => entry.operation.tags?.includes(tag.name));
    return `<h2 id="tag-${anchor(tag.name)}">${escapeHtml(tag.name)}</h2><p>${inlineText(tag.description ?? '')}</p>${tagged.map((entry) => operationHtml(doc, entry.method, entry.path, entry.operation)).join('\n')}`;
  });
  const index = operations
    .map(
      (entry) =>
        `<li><a href="#op-${anchor(entry.operation.operationId ?? '')}"><span class="method">${entry.method.toUpperCase()}</span> ${escapeHtml(entry.path)}</a></li>`,
    )
    .join('');
  const headers = Object.entries(components.headers)
    .map(([name, header]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${inlineText(header.description ?? '')}</td></tr>`)
    .join('');
  const codes = ((doc['x-error-codes'] as Array<{ code: string; status: number; description: string }>) ?? [])
    .map(
      (entry) =>
        `<tr><td><code>${escapeHtml(entry.code)}</code></td><td>${entry.status}</td><td>${inlineText(entry.description)}</td></tr>`,
    )
    .join('');
  const schemas = Object.entries(components.schemas)
    .map(
      ([name, schema]) =>
        `<section class="card" id="schema-${anchor(name)}"><h3>${escapeHtml(name)}</h3>${schema.description ? `<p>${inlineText(schema.description)}</p>` : ''}${fieldsTable(schema)}</section>`,
    )
    .join('\n');
  const body = `<h1>${escapeHtml(info.title)}</h1>
<p class="muted">Version ${escapeHtml(info.version)} · OpenAPI ${escapeHtml(doc.openapi)} · machine-readable at <a href="/openapi.json"><code>/openapi.json</code></a></p>
${blockText(info.description ?? '')}
<h2>Operations</h2><ul>${index}</ul>
${sections.join('\n')}
<h2 id="headers">Headers</h2><table><thead><tr><th>header</th><th>meaning</th></tr></thead><tbody>${headers}</tbody></table>
<h2 id="errors">Error codes</h2><table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>${codes}</tbody></table>
<h2 id="schemas">Schemas</h2>
${schemas}`;
  return page({ lang: 'en', title: `${info.title} — documentation`, body });
}
