/** Raw uploads with full control over Content-Length and chunking, as curl or a Go client would send them. */
import { request, type IncomingMessage } from 'node:http';

export interface RawReply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Collects a response into a RawReply. */
function collect(resolve: (reply: RawReply) => void, reject: (err: Error) => void): (res: IncomingMessage) => void {
  return (res) => {
    const parts: Buffer[] = [];
    res.on('data', (d: Buffer) => parts.push(d));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), headers: res.headers }));
    res.on('error', reject);
  };
}

/**
 * PUTs `chunks` to `url`. With `contentLength` the header is sent as given;
 * without it the body goes chunked (no Content-Length at all).
 */
export function rawPut(url: string, chunks: Uint8Array[], contentLength?: number, extraHeaders: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', ...extraHeaders };
    if (contentLength !== undefined) headers['content-length'] = String(contentLength);
    const req = request(url, { method: 'PUT', headers }, collect(resolve, reject));
    // The server may answer (and close) before it has read everything: that is a refusal, not an error here.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    (async () => {
      for (const c of chunks) {
        if (!req.write(c)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

/** A request with full control over headers, including Host. */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body = ''): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, collect(resolve, reject));
    req.on('error', reject);
    req.end(body);
  });
}
