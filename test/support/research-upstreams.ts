import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for the research service's paid providers: an OpenAI-compatible
 * upstream answering structured output (`response_format: json_schema`), and the part of
 * Stripe's API the SDK calls to create a checkout session. Both record what they got and
 * answer with distinctive provider facts (model, request ids, token counts) that the
 * safe views must never show.
 */

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export const LEAKY_MODEL = 'leaky-model-7b-secret';
export const LEAKY_REQUEST_ID = 'chatcmpl-LEAKYREQUESTID';
export const LEAKY_PROMPT_TOKENS = 4242;

/** The anamnesis the fake model always reports: complete, so the case becomes ready. */
export const LLM_ANAMNESIS = {
  ideaSummary: 'A marketplace matching dog owners with vetted sitters nearby.',
  targetUsers: 'Urban dog owners who travel for work',
  problem: 'Finding a trusted sitter on short notice is hard.',
  solution: 'Vetted sitters, booked in two taps, with live photo updates.',
  monetization: '15% commission per booking',
  competitors: ['Rover', 'Wag'],
  differentiation: 'Same-day vetted sitters',
  platform: 'iOS, Android',
};

export const LLM_REPORT = {
  verdict: 'Promising niche',
  confidence: 'Medium',
  idea: LLM_ANAMNESIS.ideaSummary,
  differentiation: 'Same-day vetted sitters',
  main_risk: 'Supply of trusted sitters.',
  validate_first: 'That owners book same-day.',
  cheapest_test: 'A concierge pilot in one district.',
  dont_do_now: 'Native apps.',
  potential: 'Large pet-care spend.',
  recommendation: 'Run the pilot.',
  overall_risk: 'Medium',
  why_it_can_fly: ['Pet spending grows'],
  why_it_can_crash: ['Rover dominates'],
  risk_map: {
    demand: { level: 'Low', reason: 'Clear pain.' },
    monetization: { level: 'Medium', reason: 'Commission pressure.' },
    technical: { level: 'Low', reason: 'Standard marketplace.' },
    app_store: { level: 'Low', reason: 'No special rules.' },
    competition: { level: 'High', reason: 'Rover and Wag.' },
    retention: { level: 'Medium', reason: 'Occasional need.' },
  },
  competitors: [{ app_name: 'Rover', threat_level: 'High', why: 'Market leader', app_store_link: 'https://apps.apple.com/app/rover' }],
};

/** `ok`; `fail-turns`: assistant turns answer 500; `fail-research`: reports answer 500. */
export type LlmMode = 'ok' | 'fail-turns' | 'fail-research';

export interface FakeLlm {
  readonly url: string;
  mode: LlmMode;
  readonly requests: Array<{ schema: string; body: Record<string, unknown> }>;
  /** Holds every answer until the returned function is called (to see what waits for it). */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startFakeLlm(mode: LlmMode = 'ok'): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  const state: { mode: LlmMode; gate?: Promise<void> } = { mode };
  const server = createServer((request, response) => {
    void (async () => {
      const parsed = JSON.parse(await body(request)) as Record<string, unknown> & {
        response_format?: { json_schema?: { name?: string } };
      };
      const schema = parsed.response_format?.json_schema?.name ?? '';
      requests.push({ schema, body: parsed });
      await state.gate;
      const fails =
        (state.mode === 'fail-turns' && schema === 'assistant_turn') || (state.mode === 'fail-research' && schema === 'research_report');
      if (request.url !== '/v1/chat/completions' || fails) {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        return;
      }
      const content =
        schema === 'assistant_turn'
          ? { reply: 'Thanks! Everything research needs is here; start a run when you want the report.', anamnesis: LLM_ANAMNESIS }
          : LLM_REPORT;
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': LEAKY_REQUEST_ID });
      response.end(
        JSON.stringify({
          id: LEAKY_REQUEST_ID,
          object: 'chat.completion',
          model: LEAKY_MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: LEAKY_PROMPT_TOKENS, completion_tokens: 321, total_tokens: LEAKY_PROMPT_TOKENS + 321 },
        }),
      );
    })();
  });
  const url = `${await listen(server)}/v1`;
  return {
    url,
    get mode() {
      return state.mode;
    },
    set mode(next: LlmMode) {
      state.mode = next;
    },
    requests,
    hold() {
      let release!: () => void;
      state.gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        state.gate = undefined;
        release();
      };
    },
    close: () => close(server),
  };
}

export interface FakeStripe {
  /** `STRIPE_API_URL`. */
  readonly url: string;
  /** Form fields of each checkout session created. */
  readonly sessions: Array<{ id: string; form: URLSearchParams; authorization: string | undefined }>;
  close(): Promise<void>;
}

/** Answers `POST /v1/checkout/sessions` as Stripe does (the fields the service reads). */
export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions: FakeStripe['sessions'] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const form = new URLSearchParams(await body(request));
      if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"invalid_request_error","message":"no"}}');
        return;
      }
      const id = `cs_test_fake${sessions.length + 1}`;
      sessions.push({ id, form, authorization: request.headers.authorization });
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'open',
          payment_status: 'unpaid',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          expires_at: Math.floor(Date.now() / 1000) + 86_400,
          client_reference_id: form.get('client_reference_id'),
          metadata: { workspaceId: form.get('metadata[workspaceId]'), credits: form.get('metadata[credits]') },
        }),
      );
    })();
  });
  const url = await listen(server);
  return { url, sessions, close: () => close(server) };
}
