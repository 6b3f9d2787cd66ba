import type { ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** A line of the server's JSON log, as far as tests that start it read one. */
export interface LogLine {
  msg?: string;
  url?: string;
}

/**
 * Reads a started server's stdout: every JSON log line goes into `lines` (other output, a
 * launcher's own lines, is skipped); answers the URL of the `listening` line, or rejects if
 * the process exits before it.
 */
export function listeningUrl(child: ChildProcessByStdio<null, Readable, Readable>, lines: LogLine[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as LogLine;
        lines.push(entry);
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      } catch {
        // not a JSON log line: not the server's to parse
      }
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
}
