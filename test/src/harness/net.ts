import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port that was free a moment ago (for addresses that must survive a restart, or a child that needs one). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}
