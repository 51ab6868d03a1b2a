/** `policy` and `user`: what users may do, and the controller's users. */
import { readFile } from 'node:fs/promises';
import { ApiError } from '../client/errors.js';
import { CommandError, UsageError } from '../config.js';
import { prompt, readStdin } from '../prompt.js';
import type { CommandModule } from './registry.js';

/** A policy parse error shown as `file:line:column: reason` with the line and a caret under the column. */
export function policyErrorText(file: string, text: string, details: Record<string, unknown>): string | undefined {
  const line = Number(details['line']);
  const column = Number(details['column']);
  if (!Number.isInteger(line) || line < 1) return undefined;
  const source = text.split('\n')[line - 1] ?? '';
  const col = Number.isInteger(column) && column > 0 ? column : 1;
  return `${file}:${line}:${col}: ${String(details['reason'] ?? 'syntax error')}\n  ${source}\n  ${' '.repeat(col - 1)}^`;
}

export const adminCommands: CommandModule = {
  names: ['policy', 'user'],
  register(program, action) {
    const policy = program.command('policy').description('policy documents: list, get, put');
    policy
      .command('list')
      .description('list the policy documents')
      .action(
        action(async (s) => {
          const docs = await (await s.client()).listPolicies();
          s.out.table(docs, [
            { header: 'name', value: (d) => d.name },
            { header: 'version', value: (d) => d['version'] },
            { header: 'updated', value: (d) => d['updated_at'] },
            { header: 'by', value: (d) => d['updated_by'] },
          ]);
        }),
      );
    policy
      .command('get')
      .description('print a policy document\'s text')
      .argument('<name>')
      .option('--version <n>', 'an earlier version')
      .action(
        action(async (s, name: string, o: { version?: string }) => {
          const doc = await (await s.client()).getPolicy(name, o.version === undefined ? undefined : Number(o.version));
          s.out.result(doc, () => s.io.stdout.write(doc.text?.endsWith('\n') ? doc.text : `${doc.text ?? ''}\n`));
        }),
      );
    policy
      .command('put')
      .description('write a policy document from a file (- for stdin); a syntax error is shown at its line and column')
      .argument('<name>')
      .argument('<file>')
      .option('--description <text>', 'what the document is for')
      .action(
        action(async (s, name: string, file: string, o: { description?: string }) => {
          const client = await s.client();
          const text = file === '-' ? await readStdin(s.io) : await readFile(file, 'utf8');
          const current = await client.getPolicy(name).catch((err: unknown) => {
            if (err instanceof ApiError && err.status === 404) return undefined;
            throw err;
          });
          try {
            const written = await client.putPolicies([{ name, text, for_version: current?.version ?? 0, ...(o.description ? { description: o.description } : {}) }]);
            const doc = written[0];
            s.out.result(written, () => s.out.line(`policy ${name} is at version ${String(doc?.['version'] ?? '?')}`));
          } catch (err) {
            const details = err instanceof ApiError ? err.body.error_details : undefined;
            const shown = details ? policyErrorText(file === '-' ? '<stdin>' : file, text, details) : undefined;
            if (!shown || !(err instanceof ApiError)) throw err;
            throw new CommandError(`${shown}\n(request id ${err.requestId})`, { ...details, request_id: err.requestId, status: err.status });
          }
        }),
      );

    const user = program.command('user').description('the controller\'s users (basic login): list, create, set password, delete');
    user
      .command('list')
      .description('list the users')
      .action(
        action(async (s) => {
          const users = await (await s.client()).listUsers();
          s.out.table(users, [
            { header: 'name', value: (u) => u.name },
            { header: 'principal', value: (u) => u['principal'] },
            { header: 'created', value: (u) => u['created_at'] },
          ]);
        }),
      );
    for (const verb of ['create', 'set-password'] as const) {
      user
        .command(verb)
        .description(verb === 'create' ? 'create a user with a password' : 'change a user\'s password (their tokens stop working)')
        .argument('<name>')
        .option('--password-stdin', 'read the password from stdin')
        .action(
          action(async (s, name: string, o: { passwordStdin?: boolean }) => {
            const client = await s.client();
            const exists = (await client.listUsers()).some((u) => u.name === name);
            if (verb === 'create' && exists) throw new CommandError(`user ${name} exists already: use \`platform user set-password\``);
            if (verb === 'set-password' && !exists) throw new CommandError(`no user ${name}: use \`platform user create\``);
            const password = o.passwordStdin ? await readStdin(s.io) : await prompt(s.io, `Password for ${name}: `, true);
            if (password === '') throw new UsageError('the password is empty');
            const u = await client.setUserPassword(name, password);
            s.out.result(u, () => s.out.line(verb === 'create' ? `user ${name} created` : `password of ${name} changed`));
          }),
        );
    }
    user
      .command('delete')
      .description('delete a user')
      .argument('<name>')
      .action(
        action(async (s, name: string) => {
          await (await s.client()).deleteUser(name);
          s.out.result({ deleted: name }, () => s.out.line(`user ${name} deleted`));
        }),
      );
  },
};
