/**
 * TLS at the router: certificates the test makes (openssl), chosen by SNI host name, and
 * https_only routes answering plain HTTP with a 301 to https.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { routerAppArchive, splitAddress, viaRouter } from '../harness/router-app.js';
import { eventually } from '../harness/wait.js';

/** A self-signed certificate for `names` (the first is also the CN). */
function certificate(dir: string, file: string, names: string[]): { cert: string; key: string } {
  const cert = join(dir, `${file}.crt`);
  const key = join(dir, `${file}.key`);
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-keyout', key, '-out', cert,
    '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
  ], { stdio: 'ignore' });
  return { cert, key };
}

function httpsGet(address: string, host: string, ca: string[], path = '/'): Promise<{ status: number; cn: string; body: string }> {
  const [h, p] = splitAddress(address);
  return new Promise((resolve, reject) => {
    https
      .get({ host: h, port: p, path, servername: host, headers: { host }, ca, agent: false }, (res) => {
        const cn = String((res.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cn, body }));
      })
      .on('error', reject);
  });
}

test('router TLS: certificates by SNI, X-Forwarded-Proto https, and https_only answers plain HTTP with 301', async (t: ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-tls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const apps = certificate(dir, 'apps', ['*.apps.test']);
  const other = certificate(dir, 'other', ['www.other.test']);
  const cluster = await startCluster(t, [{}], {
    args: [
      '--domain', 'apps.test', '--router-tls-listen', '127.0.0.1:0',
      '--router-tls-cert', apps.cert, '--router-tls-key', apps.key,
      '--router-tls-cert', other.cert, '--router-tls-key', other.key,
    ],
  });
  const tlsAddress = cluster.controller.routerTlsAddress;
  t.truthy(tlsAddress);
  const pkg = await uploadPackage(cluster.api, '/sandbox/admin', routerAppArchive());
  const host = `${unique('secure')}.apps.test`;
  const job = await cluster.api.post<Job>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('tls')}`,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, routes: [{ type: 'http', endpoint: host, https_only: true }, { type: 'http', endpoint: 'www.other.test' }] }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    tags: { app: '' },
    state: 'started',
  });
  t.is(job.status, 200, job.text);
  await runningInstances(cluster.api, job.body.uuid, 1, 90_000);
  const ca = [readFileSync(apps.cert, 'utf8'), readFileSync(other.cert, 'utf8')];

  const secure = await eventually(async () => {
    const r = await httpsGet(tlsAddress, host, ca, '/x?y=1');
    return r.status === 200 ? r : undefined;
  });
  t.is(secure.cn, '*.apps.test');
  t.is((JSON.parse(secure.body) as { headers: Record<string, string> }).headers['x-forwarded-proto'], 'https');
  const second = await httpsGet(tlsAddress, 'www.other.test', ca);
  t.is(second.status, 200);
  t.is(second.cn, 'www.other.test', 'the certificate whose name matches the SNI host');

  const plain = await viaRouter(cluster.controller.routerAddress, host, '/x?y=1');
  t.is(plain.status, 301);
  t.is(plain.headers['location'], `https://${host}:${splitAddress(tlsAddress)[1]}/x?y=1`);
  t.is((await viaRouter(cluster.controller.routerAddress, 'www.other.test')).status, 200, 'a route without https_only serves plain HTTP');
});
