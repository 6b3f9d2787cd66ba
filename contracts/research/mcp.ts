import { defineMcpServer } from '../mcp.js';
import { researchPing } from './billing.contract.js';

/** The research MCP endpoint (seed 001, part A, MCP rules): the same bearer keys and scopes as REST. */
export const RESEARCH_MCP = defineMcpServer({
  service: 'research',
  path: '/mcp',
  name: 'qantara/research',
  title: 'Qantara research',
  description: 'Startup-idea research: chat cases, explicit paid research runs, prepaid credits.',
  instructions: [
    'Describe a startup idea with send_message (leave threadId out to start a case, pass it to continue one).',
    'It returns the updated case at once with the assistant reply pending and never starts research;',
    'wait_for_reply waits (up to 30 seconds) for that reply and returns the case; get_thread returns the case at once',
    '(the case resource shows the same), with the anamnesis and what is still missing.',
    'When the case is ready, start_research queues a paid run (30 credits) or returns the matching completed report at once;',
    'the research run resource holds its full report once it completes.',
    'The billing resource shows the balance, pricing and top-up options.',
  ].join(' '),
  admission: researchPing,
  credential: 'A research API key (`rk_live_…` or `rk_test_…`) with the scopes of the tools and resources used.',
});
