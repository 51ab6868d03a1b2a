import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DestinationPolicy, parseAllowList } from '@platform/proto/common';
import { ImageError } from './flatten.js';
import { parseImageRef } from './image-ref.js';
import { MEDIA, RegistryClient } from './registry-client.js';

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A loopback HTTP server answering with `handle`, recording each request's path. */
async function server(t: ExecutionContext, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const s = createServer((req, res) => {
    seen.push(req.url ?? '');
    handle(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => s.close(() => resolve())));
  return { port: (s.address() as AddressInfo).port, seen };
}

const rule = (allow: string) => new DestinationPolicy({ purpose: 'image pulls', setting: '--allowed-registries', allow: parseAllowList(allow) });

const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config: {} }));
const manifest = Buffer.from(
  JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.ociManifest, config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length }, layers: [] }),
);

test('registry client: a registry listed with its port is pulled from; a redirect to an address not listed is refused at that hop, and it sees no request', async (t) => {
  const elsewhere = await server(t, (_req, res) => res.end('{}'));
  const registry = await server(t, (req, res) => {
    if (req.url?.includes('/manifests/')) return res.writeHead(200, { 'Content-Type': MEDIA.ociManifest }).end(manifest);
    res.writeHead(307, { Location: `http://127.0.0.1:${elsewhere.port}/storage${req.url ?? ''}` }).end();
  });
  const client = new RegistryClient(parseImageRef(`127.0.0.1:${registry.port}/team/app:v1`), { destinations: rule(`127.0.0.1:${registry.port}`) });
  const m = await client.manifest();
  t.is(m.config.digest, sha256(config));
  const err = await t.throwsAsync(client.config(m.config), { instanceOf: ImageError });
  t.is(
    err.message,
    `the registry 127.0.0.1:${registry.port} (redirected to http://127.0.0.1:${elsewhere.port}): image pulls may not reach 127.0.0.1:${elsewhere.port}: ` +
      '127.0.0.1 is a loopback address (an operator allows it by listing it in --allowed-registries)',
  );
  t.deepEqual(elsewhere.seen, [], 'the redirect target saw no request');
  // A redirect to the cloud metadata address, by name or number: refused before any connection.
  for (const location of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/latest/', 'http://2852039166/latest/']) {
    const metadata = await server(t, (_req, res) => res.writeHead(302, { Location: location }).end());
    const c = new RegistryClient(parseImageRef(`127.0.0.1:${metadata.port}/team/app:v1`), { destinations: rule('127.0.0.1') });
    await t.throwsAsync(c.manifest(), { instanceOf: ImageError, message: /^the registry 127\.0\.0\.1:\d+ \(redirected to http:\/\/.*\): image pulls may not reach .* is a link-local address/ }, location);
  }
});

test("registry client: the bearer challenge's token realm is judged like the registry: a refused one is asked nothing, a listed one gives the token", async (t) => {
  let tokenAsked = 0;
  const tokens = await server(t, (_req, res) => {
    tokenAsked++;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token: 'tok' }));
  });
  const registry = await server(t, (req, res) => {
    if (req.headers.authorization !== 'Bearer tok') {
      return res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="http://localhost:${tokens.port}/token",service="test",scope="repository:team/app:pull"` }).end();
    }
    res.writeHead(200, { 'Content-Type': MEDIA.ociManifest }).end(manifest);
  });
  const ref = parseImageRef(`127.0.0.1:${registry.port}/team/app:v1`);
  const refused = new RegistryClient(ref, { destinations: rule(`127.0.0.1:${registry.port}`) });
  const err = await t.throwsAsync(refused.manifest(), { instanceOf: ImageError });
  t.regex(err.message, new RegExp(`^the token service of registry 127\\.0\\.0\\.1:${registry.port} \\(http://localhost:${tokens.port}\\): image pulls may not reach localhost:${tokens.port}: it resolves to `));
  t.is(tokenAsked, 0, 'the token service saw no request');
  const listed = new RegistryClient(ref, { destinations: rule(`127.0.0.1:${registry.port} localhost:${tokens.port}`) });
  t.is((await listed.manifest()).config.digest, sha256(config));
  t.is(tokenAsked, 1);
});

test("registry client: the registry's own address is judged at the connection: a name resolving to loopback, the unspecified address", async (t) => {
  const registry = await server(t, (_req, res) => res.writeHead(200, { 'Content-Type': MEDIA.ociManifest }).end(manifest));
  for (const host of [`localhost:${registry.port}`, `0.0.0.0:${registry.port}`, `[::ffff:127.0.0.1]:${registry.port}`]) {
    const client = new RegistryClient(parseImageRef(`http://${host}/team/app:v1`), { destinations: rule('') });
    await t.throwsAsync(client.manifest(), { instanceOf: ImageError, message: /^image pulls may not reach / }, host);
  }
  t.deepEqual(registry.seen, []);
});
