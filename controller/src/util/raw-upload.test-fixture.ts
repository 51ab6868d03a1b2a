/**
 * A raw client for tests of servers that refuse an upload part-way (a malformed chunk): it sends
 * `head`, reads the answer until the server's FIN, then goes on writing the upload as a real
 * client does until it reads the answer, and says whether the server bore with that. Not shipped
 * (`*.test.*`).
 */
import net from 'node:net';

export interface UploadAfterAnswer {
  /** Everything received (latin1). */
  text: string;
  /** The error code the client got on its writes, if any. */
  failure: string | undefined;
  /** Whether the server closed the connection while the client was still sending. */
  closedEarly: boolean;
}

/**
 * Connects to 127.0.0.1:`port` (half-open allowed: the client goes on sending after the server's
 * FIN), writes `head`, waits for the server's end, writes `writes` more KiB 10 ms apart (fewer if
 * the connection fails or closes), then ends and waits for the close. `onSocket` gets the socket
 * at once, for a teardown.
 */
export async function uploadAfterAnswer(port: number, head: string, onSocket: (socket: net.Socket) => void, writes = 40): Promise<UploadAfterAnswer> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  onSocket(socket);
  socket.write(head);
  let text = '';
  let failure: string | undefined;
  let closedEarly = false;
  let ending = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', (err: NodeJS.ErrnoException) => (failure = err.code ?? err.message));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => (closedEarly = !ending));
  await new Promise<void>((resolve) => socket.once('end', () => resolve()));
  for (let i = 0; i < writes && !closedEarly && failure === undefined; i++) {
    socket.write('x'.repeat(1024));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  ending = true;
  socket.end();
  await closed;
  return { text, failure, closedEarly };
}
