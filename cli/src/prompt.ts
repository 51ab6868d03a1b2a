/** Reading what the user types: a line, a password without echo, or all of stdin. */
import type { SessionIo } from './session.js';
import { UsageError } from './config.js';

/** Reads one line; echoes it, or (hidden) prints nothing while the user types a password. */
export async function prompt(io: SessionIo, question: string, hidden = false): Promise<string> {
  const { stdin, stderr } = io;
  if (!stdin.isTTY) throw new UsageError(`${question.replace(/:\s*$/, '')} is needed and stdin is not a terminal (use --password-stdin for scripts)`);
  // Raw (no echo by the terminal) before the question shows: what is typed as soon as it appears
  // must not be echoed by a terminal still in cooked mode.
  stdin.setRawMode?.(true);
  stdin.resume();
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (err?: Error) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') {
          if (value.length > 0) {
            value = value.slice(0, -1);
            if (!hidden) stderr.write('\b \b');
          }
          continue;
        }
        value += ch;
        if (!hidden) stderr.write(ch);
      }
    };
    stdin.on('data', onData);
  });
}

/** All of stdin as text, without its trailing newline (`--password-stdin`). */
export async function readStdin(io: SessionIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
