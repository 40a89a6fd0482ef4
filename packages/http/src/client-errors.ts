// HTTP that Node's parser refuses before any route sees it (an unknown method, a request line or
// headers over the limit, garbage) answered as {"detail"} like every other error, then closed.
// Used by the API and by the shell's server, which is what a browser talks to.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

const clientErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line or headers are too large (a query string under 8,000 characters is accepted).'],
  HPE_INVALID_METHOD: [400, 'Unknown HTTP method.'],
};

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, detail] = clientErrors[error.code ?? ''] ?? [400, 'Malformed HTTP request.'];
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
