import test from 'ava';
import { commonFlags } from './cli.js';

class UsageError extends Error {}
const fail = (message: string): never => {
  throw new UsageError(message);
};
const o = { usage: '', version: '', fail, env: {} };

test('cli: the log level comes from --log-level, else PLATFORM_LOG_LEVEL, else info', (t) => {
  t.is(commonFlags({}, o), 'info');
  t.is(commonFlags({}, { ...o, env: { PLATFORM_LOG_LEVEL: 'warn' } }), 'warn');
  t.is(commonFlags({ 'log-level': 'debug' }, { ...o, env: { PLATFORM_LOG_LEVEL: 'warn' } }), 'debug');
});

test('cli: a log level that is not one is a usage error', (t) => {
  t.throws(() => commonFlags({ 'log-level': 'loud' }, o), { instanceOf: UsageError, message: /log level "loud"/ });
  t.throws(() => commonFlags({}, { ...o, env: { PLATFORM_LOG_LEVEL: 'chatty' } }), { instanceOf: UsageError });
});

test('cli: --help and --version answer undefined, so the binary ends', (t) => {
  t.is(commonFlags({ help: true, 'log-level': 'loud' }, o), undefined);
  t.is(commonFlags({ version: true }, o), undefined);
});
