import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface SendResult {
  /** HTTP status, or null when no answer came (refused, reset, timed out). */
  status: number | null;
  error: string | null;
}

/**
 * POSTs one webhook body. No keep-alive, so nothing lingers after the sandbox closes. An answer
 * that does not complete within `timeoutMs` is a failure, as on Shopify (5 s).
 */
export function sendWebhook(
  uri: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const url = new URL(uri);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => finish({ status: res.statusCode ?? null, error: null }));
        res.on('error', (error) => finish({ status: null, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish({ status: null, error: error.message }));
    req.end(body);
  });
}
