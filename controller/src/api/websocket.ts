/**
 * WebSocket upgrades of API endpoints (GET /tasks/{uuid} streams its events after an upgrade).
 *
 * Node hands a request with `Upgrade:` to the server's `upgrade` event, not to the Koa app.
 * `routeUpgrades` gives such requests to the app all the same, with a response bound to the
 * socket: authentication, policy, logging and errors apply as to any request, and a refusal is
 * an ordinary HTTP answer (then the socket closes). A handler that accepts calls
 * `acceptWebSocket`, which completes the handshake (the `ws` library) and takes the socket
 * from Koa.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { InvalidRequestError } from '../errors.js';
import type { ApiContext } from './endpoint.js';

interface UpgradeRequest extends IncomingMessage {
  platformUpgrade?: { socket: Duplex; head: Buffer; res: ServerResponse };
}

/** Largest message a client may send on an API WebSocket (they only listen). */
const MAX_CLIENT_MESSAGE = 4096;

const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE });

/** Routes `upgrade` requests of `server` through `handler` (the Koa app's callback). */
export function routeUpgrades(server: Server, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('upgrade', (req: UpgradeRequest, socket: Duplex, head: Buffer) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    // An answer other than the upgrade (a refusal) ends the exchange.
    res.on('finish', () => {
      if (req.platformUpgrade) socket.end();
    });
    req.platformUpgrade = { socket, head, res };
    socket.on('error', () => socket.destroy());
    handler(req, res);
  });
}

/** Whether the request asks for a WebSocket. */
export function wantsWebSocket(ctx: ApiContext): boolean {
  return (ctx.get('Upgrade') || '').toLowerCase() === 'websocket';
}

/**
 * Completes the WebSocket handshake of the request; Koa answers nothing more. 400 when the
 * request is not a WebSocket upgrade that reached the server's `upgrade` event.
 */
export function acceptWebSocket(ctx: ApiContext): Promise<WebSocket> {
  const req = ctx.req as UpgradeRequest;
  const upgrade = req.platformUpgrade;
  if (!upgrade || !wantsWebSocket(ctx)) throw new InvalidRequestError('expected a WebSocket upgrade (Connection: Upgrade, Upgrade: websocket)');
  // What `ws` would refuse on its own, refused here as an APIError (it would answer and close).
  if (!/^[+/0-9A-Za-z]{22}==$/.test(ctx.get('Sec-WebSocket-Key'))) throw new InvalidRequestError('Sec-WebSocket-Key: missing or malformed');
  if (!['8', '13'].includes(ctx.get('Sec-WebSocket-Version'))) throw new InvalidRequestError('Sec-WebSocket-Version: 13 is the version served');
  ctx.respond = false;
  ctx.status = 101;
  delete req.platformUpgrade;
  upgrade.res.detachSocket(upgrade.socket as never);
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('the client left during the WebSocket handshake'));
    upgrade.socket.once('close', closed);
    wss.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) => {
      upgrade.socket.off('close', closed);
      resolve(ws);
    });
  });
}
