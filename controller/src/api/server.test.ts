/**
 * The API's answers to requests whose body breaks off (answerClientErrors with the HTTP limits)
 * on a real server on loopback, its handler reading bodies as the endpoints do (readBodyText).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { checkingIntervalMs, DEFAULT_HTTP_LIMITS, limitRequests } from '../util/http-limits.js';
import { randomIds } from '../util/ids.js';
import { uploadAfterAnswer } from '../util/raw-upload.test-fixture.js';
import { InvalidRequestError } from '../errors.js';
import { readBodyText } from './body.js';
import { answerClientErrors } from './server.js';

test('api server: after the 400 of a malformed chunk, the rest of the upload is read and discarded until the client closes (the connection is not reset under it)', async (t) => {
  const server = createServer({ connectionsCheckingInterval: checkingIntervalMs(DEFAULT_HTTP_LIMITS) }, (req: IncomingMessage, res) => {
    readBodyText(req, 1 << 20).then(
      () => res.end('read'),
      (error: unknown) => {
        res.statusCode = error instanceof InvalidRequestError ? 400 : 500;
        res.end('refused');
      },
    );
  });
  answerClientErrors(server, new JsonLogger(new MemorySink(), 'silent'), randomIds);
  limitRequests(server, DEFAULT_HTTP_LIMITS, () => new Error('stalled'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { text, failure, closedEarly } = await uploadAfterAnswer(
    (server.address() as AddressInfo).port,
    'POST /v1/packages HTTP/1.1\r\nHost: api\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n',
    (socket) => t.teardown(() => socket.destroy()),
  );
  t.regex(text, /^HTTP\/1\.1 400 /);
  t.regex(text, /connection: close/i);
  t.is(failure, undefined, 'the client got no error on its writes');
  t.false(closedEarly, 'the server did not close the connection while the client was still sending');
});
