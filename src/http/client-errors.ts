import type { Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.ts';

/**
 * Requests Node refuses before Fastify sees them (headers over HEADER_LIMIT, a request line it cannot
 * parse) are answered on the socket in the same envelope as every other error, then the connection is
 * closed: 431 REQUEST_HEADERS_TOO_LARGE or 400 INVALID_REQUEST. A reset or timed-out connection gets
 * no answer. Used as Fastify's `clientErrorHandler` and by the listener's plain-HTTP parser.
 *
 * @example
 * Fastify({ clientErrorHandler: clientErrorHandler('https://localhost/docs/errors') });
 */
export function clientErrorHandler(docsUrl: string) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.destroy();
      return;
    }
    const code: ErrorCode =
      error.code === 'HPE_HEADER_OVERFLOW' ? 'REQUEST_HEADERS_TOO_LARGE' : 'INVALID_REQUEST';
    const info = ERROR_CODES[code];
    const body = JSON.stringify({
      timeStamp: Date.now(),
      message: code === 'INVALID_REQUEST' ? 'The request could not be parsed as HTTP/1.1' : info.message,
      infoLink: `${docsUrl}#${code}`,
      path: pathOf(Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined),
      errorCode: code,
      details: [],
    });
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    // end(), not destroy(): the answer must be flushed before the connection closes.
    socket.end(
      `HTTP/1.1 ${info.status} ${code === 'INVALID_REQUEST' ? 'Bad Request' : 'Request Header Fields Too Large'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}

/** The path of the request line when the packet Node failed on holds it ('/' otherwise). */
function pathOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 2048).toString('latin1').split('\r\n')[0] ?? '';
  const target = /^[A-Z]+ (\/\S{0,1000})/.exec(line)?.[1] ?? '/';
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}
