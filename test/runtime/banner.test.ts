import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { logBanner, startupBanner } from '../../runtime/banner.js';

const VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

function capture(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('start-up banner', () => {
  const banner = startupBanner({
    origin: 'http://localhost:8080',
    demoEmails: ['admin@demo.qantara.local', 'ceo@demo.qantara.local'],
    demoResearch: true,
  });

  it('names every entry point, the demo sign-in emails and where its password and the research key are', () => {
    expect(banner.text.split('\n')[0]).toBe(`Qantara ${VERSION} is ready at http://localhost:8080`);
    for (const url of ['/', '/docs', '/api/v1/docs', '/research/docs', '/graphql', '/app/']) {
      expect(banner.text).toContain(`http://localhost:8080${url}`);
    }
    expect(banner.text).toMatch(
      /Demo sign-in\s+admin@demo\.qantara\.local, ceo@demo\.qantara\.local\n\s+password: README\.md, "Demo organization"/,
    );
    expect(banner.text).toMatch(/Demo research key\s+printed once, at the first start/);
  });

  it('leaves out the demo lines when no demo data is made', () => {
    const plain = startupBanner({ origin: 'http://10.0.0.5:80' });
    expect(plain.text).not.toMatch(/Demo/);
    expect(plain.fields).not.toHaveProperty('demoSignIn');
    expect(plain.fields).not.toHaveProperty('demoResearchKey');
  });

  it('is one info line in a JSON log, with the block on stdout only at a terminal', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const piped = capture();
      logBanner(piped.logger, banner, false);
      expect(piped.lines).toHaveLength(1);
      expect(JSON.parse(piped.lines[0]!)).toMatchObject({
        level: 30,
        msg: 'ready',
        version: VERSION,
        home: 'http://localhost:8080/',
        docs: {
          library: 'http://localhost:8080/docs',
          operations: 'http://localhost:8080/api/v1/docs',
          research: 'http://localhost:8080/research/docs',
        },
        graphql: 'http://localhost:8080/graphql',
        console: 'http://localhost:8080/app/',
        demoSignIn: { emails: ['admin@demo.qantara.local', 'ceo@demo.qantara.local'], password: 'README.md, "Demo organization"' },
      });
      expect(write).not.toHaveBeenCalled();

      const terminal = capture();
      logBanner(terminal.logger, banner, true);
      expect(terminal.lines).toHaveLength(1);
      expect(write).toHaveBeenCalledWith(`\n${banner.text}\n\n`);
    } finally {
      write.mockRestore();
    }
  });
});
