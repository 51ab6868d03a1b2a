/**
 * A real OpenLDAP server for tests: `slapd` from the system (Debian packages
 * `slapd` and `ldap-utils`), with its own configuration and database in a
 * temporary directory, listening on a free loopback port. Nothing of a system
 * slapd (its port 389, /etc/ldap/slapd.d, its database) is used or touched.
 *
 * Lifecycle: `Slapd.start` writes the configuration, loads the entries with
 * slapadd, starts slapd in the foreground and waits until it answers a search;
 * `stop` ends the process (SIGTERM, then SIGKILL after a deadline) and keeps
 * the directory so that `start` can bring the same server back on the same
 * port; `dispose` stops it and removes the directory.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { freePorts } from './net.js';
import { eventually } from './wait.js';

const run = promisify(execFile);

export interface SlapdUser {
  uid: string;
  password: string;
  /** Under `ou=<ou>`; default `people`. */
  ou?: string;
}

export interface SlapdOptions {
  /** Default `dc=example,dc=test`. */
  suffix?: string;
  users?: SlapdUser[];
  /** A service account `cn=<name>,ou=services,<suffix>` that may search. */
  service?: { name: string; password: string };
  /**
   * Accept a simple bind with a DN and an empty password as anonymous, as many
   * servers do (`allow bind_anon_cred`): the trap that a client must not fall in.
   */
  allowAnonymousBindWithDn?: boolean;
  /**
   * Also serve TLS: a test CA (made with openssl) signs a certificate for
   * 127.0.0.1, and slapd answers StartTLS on `url` and TLS on `ldapsUrl`.
   */
  tls?: boolean;
  /** How long to wait for the server to answer. Default 20 s. */
  readyTimeoutMs?: number;
}

export interface SlapdTools {
  slapd: string;
  slapadd: string;
  ldapsearch: string;
  /** Needed only for `tls`. */
  openssl: string | undefined;
}

const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin', '/sbin'];
const SCHEMA_DIRS = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema'];
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib/openldap', '/usr/lib64/openldap', '/usr/local/libexec/openldap'];

function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), ...SBIN_DIRS];
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The OpenLDAP programs the harness needs, or the names of those missing. */
export function findSlapdTools(): { tools: SlapdTools; missing: [] } | { tools: undefined; missing: string[] } {
  const found = { slapd: findExecutable('slapd'), slapadd: findExecutable('slapadd'), ldapsearch: findExecutable('ldapsearch') };
  const missing = Object.entries(found)
    .filter(([, path]) => path === undefined)
    .map(([name]) => name);
  if (!SCHEMA_DIRS.some((d) => existsSync(join(d, 'inetorgperson.schema')))) missing.push('the OpenLDAP schema files');
  if (missing.length > 0) return { tools: undefined, missing };
  return { tools: { ...(found as Omit<SlapdTools, 'openssl'>), openssl: findExecutable('openssl') }, missing: [] };
}

/** `{SSHA}` of RFC 2307 style: base64(sha1(password + salt) + salt). */
export function sshaHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/** An LDIF value: plain when safe, base64 (`::`) otherwise. */
function ldifLine(attribute: string, value: string): string {
  const safe = /^[\x21-\x39\x3b\x3d-\x7e][\x20-\x7e]*$/.test(value) && !value.endsWith(' ');
  return safe ? `${attribute}: ${value}` : `${attribute}:: ${Buffer.from(value, 'utf8').toString('base64')}`;
}

/** The DN value escaping of RFC 4514, for the few characters the tests' names use. */
function dnValue(value: string): string {
  return value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^[ #]/, (c) => `\\${c}`);
}

export class Slapd {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #output: string[] = [];

  private constructor(
    readonly tools: SlapdTools,
    readonly dir: string,
    readonly suffix: string,
    readonly port: number,
    /** The ldaps:// port, with `tls`. */
    readonly tlsPort: number | undefined,
    private readonly readyTimeoutMs: number,
  ) {}

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  /** With `tls`: the ldaps:// URL. */
  get ldapsUrl(): string {
    if (this.tlsPort === undefined) throw new Error('this slapd was started without tls');
    return `ldaps://127.0.0.1:${this.tlsPort}`;
  }

  /** With `tls`: the PEM file of the CA that signed the server's certificate. */
  get caFile(): string {
    return join(this.dir, 'tls', 'ca.pem');
  }

  /** The DN of a user made by `options.users`. */
  userDn(uid: string, ou = 'people'): string {
    return `uid=${dnValue(uid)},ou=${ou},${this.suffix}`;
  }

  serviceDn(name: string): string {
    return `cn=${dnValue(name)},ou=services,${this.suffix}`;
  }

  /** What slapd wrote, for failure messages. */
  get output(): string {
    return this.#output.join('');
  }

  static async start(options: SlapdOptions = {}): Promise<Slapd> {
    const found = findSlapdTools();
    if (!found.tools) throw new Error(`cannot start slapd: ${found.missing.join(', ')} not found (Debian packages slapd and ldap-utils)`);
    const suffix = options.suffix ?? 'dc=example,dc=test';
    const dir = await mkdtemp(join(tmpdir(), 'platform-slapd-'));
    try {
      await mkdir(join(dir, 'db'));
      if (options.tls) await makeCertificates(found.tools, join(dir, 'tls'));
      await writeFile(join(dir, 'slapd.conf'), config(dir, suffix, options));
      await writeFile(join(dir, 'data.ldif'), entries(suffix, options));
      await run(found.tools.slapadd, ['-f', join(dir, 'slapd.conf'), '-l', join(dir, 'data.ldif')]);
      // The free port is free when found, not reserved: a rare race with another
      // process is met by trying another port.
      let lastError: unknown;
      for (let i = 0; i < 3; i++) {
        const [ldapPort, ldapsPort] = await freePorts(2);
        const slapd = new Slapd(found.tools, dir, suffix, ldapPort!, options.tls ? ldapsPort : undefined, options.readyTimeoutMs ?? 20_000);
        try {
          await slapd.start();
          return slapd;
        } catch (err) {
          lastError = err;
          await slapd.stop();
        }
      }
      throw lastError;
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Starts (again) on this server's port and waits until it answers a search. */
  async start(): Promise<void> {
    if (this.#child) throw new Error('slapd is running already');
    // -d 0: stay in the foreground (so the process is ours to stop) and log nothing extra.
    const urls = [`${this.url}/`, ...(this.tlsPort === undefined ? [] : [`${this.ldapsUrl}/`])].join(' ');
    const child = spawn(this.tools.slapd, ['-f', join(this.dir, 'slapd.conf'), '-h', urls, '-d', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    child.stdout.on('data', (d: Buffer) => this.#output.push(d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => this.#output.push(d.toString('utf8')));
    let exitedEarly = false;
    this.#exited = new Promise((resolve) =>
      child.once('exit', () => {
        exitedEarly = true;
        if (this.#child === child) this.#child = undefined;
        resolve();
      }),
    );
    await eventually(
      async () => {
        if (exitedEarly) throw new Error(`slapd exited before it answered:\n${this.output}`);
        await run(this.tools.ldapsearch, ['-x', '-H', this.url, '-b', '', '-s', 'base', '-LLL', 'namingContexts']);
        return true;
      },
      { what: `slapd to answer on ${this.url}`, timeoutMs: this.readyTimeoutMs, intervalMs: 50 },
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}: ${String((err as Error).cause ?? '')}\n${this.output}`, { cause: err });
    });
  }

  /** Ends the process: SIGTERM, and SIGKILL if it has not exited within 10 s. Keeps the data. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    force.unref();
    await this.#exited;
    clearTimeout(force);
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

function config(dir: string, suffix: string, o: SlapdOptions): string {
  const schemaDir = SCHEMA_DIRS.find((d) => existsSync(join(d, 'inetorgperson.schema')))!;
  // Distributions build back_mdb as a module (Debian) or into slapd.
  const moduleDir = MODULE_DIRS.find((d) => existsSync(join(d, 'back_mdb.so')) || existsSync(join(d, 'back_mdb.la')));
  return [
    ...['core', 'cosine', 'inetorgperson'].map((s) => `include ${join(schemaDir, `${s}.schema`)}`),
    ...(moduleDir ? [`modulepath ${moduleDir}`, 'moduleload back_mdb'] : []),
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    ...(o.allowAnonymousBindWithDn ? ['allow bind_anon_cred'] : []),
    ...(o.tls
      ? [
          `TLSCACertificateFile ${join(dir, 'tls', 'ca.pem')}`,
          `TLSCertificateFile ${join(dir, 'tls', 'server.pem')}`,
          `TLSCertificateKeyFile ${join(dir, 'tls', 'server.key')}`,
        ]
      : []),
    'database mdb',
    'maxsize 16777216',
    `suffix "${suffix}"`,
    `directory ${join(dir, 'db')}`,
    // Passwords are for binding only; everything else is readable, also anonymously,
    // so that both anonymous search and a service account work.
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n');
}

/** A test CA and a server certificate for 127.0.0.1 and localhost, valid for two days. */
async function makeCertificates(tools: SlapdTools, dir: string): Promise<void> {
  if (!tools.openssl) throw new Error('cannot make test certificates: openssl not found');
  await mkdir(dir);
  const f = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run(tools.openssl, ['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=platform test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run(tools.openssl, ['req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1']);
  await writeFile(f('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n');
  await run(tools.openssl, ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', '2', '-extfile', f('server.ext')]);
}

function entries(suffix: string, o: SlapdOptions): string {
  const rdn = /^dc=([^,]+)/.exec(suffix)?.[1] ?? 'example';
  const blocks: string[][] = [[`dn: ${suffix}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Platform tests', `dc: ${rdn}`]];
  const ous = new Set(['people', 'services', ...(o.users ?? []).map((u) => u.ou ?? 'people')]);
  for (const ou of ous) blocks.push([`dn: ou=${ou},${suffix}`, 'objectClass: organizationalUnit', `ou: ${ou}`]);
  for (const user of o.users ?? []) {
    blocks.push([
      ldifLine('dn', `uid=${dnValue(user.uid)},ou=${user.ou ?? 'people'},${suffix}`),
      'objectClass: inetOrgPerson',
      ldifLine('uid', user.uid),
      ldifLine('cn', user.uid),
      ldifLine('sn', user.uid),
      ldifLine('userPassword', sshaHash(user.password)),
    ]);
  }
  if (o.service) {
    blocks.push([
      ldifLine('dn', `cn=${dnValue(o.service.name)},ou=services,${suffix}`),
      'objectClass: organizationalRole',
      'objectClass: simpleSecurityObject',
      ldifLine('cn', o.service.name),
      ldifLine('userPassword', sshaHash(o.service.password)),
    ]);
  }
  return blocks.map((b) => b.join('\n')).join('\n\n') + '\n';
}
