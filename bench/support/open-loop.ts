import http from 'node:http';

/** One request of an open-loop run: its body and headers, built when it is due. */
export interface OpenLoopRequest {
  body: string;
  headers: Record<string, string>;
  /** Called with the status of a request that was answered (not on errors or time-outs). */
  onResponse?(status: number): void;
}

/** What an open-loop run measured. Latencies are from each request's due time. */
export interface OpenLoopResult {
  sent: number;
  /** Answered with any status. */
  answered: number;
  non2xx: number;
  timeouts: number;
  /** Connection errors (refused, reset). */
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Sends POSTs to `url` at a fixed rate, one every 1/rate s, whatever the answers (an open
 * loop, as Shopify delivers): a slow server gets more connections, never fewer requests, and
 * each latency runs from the request's due time, so a late send counts against the server
 * (no coordinated omission). Why not autocannon: with one connection per request per second its
 * `overallRate` fires every connection at once, 300 requests in a burst each second, and a
 * server answering at once measured a p50 of 40 ms and a p99 of 110 ms on this machine, above
 * the target it is to check.
 */
export async function openLoop(
  url: string,
  ratePerSecond: number,
  seconds: number,
  timeoutMs: number,
  build: () => OpenLoopRequest,
): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const target = new URL(url);
  const latencies: number[] = [];
  const result = { sent: 0, answered: 0, non2xx: 0, timeouts: 0, errors: 0 };
  const inFlight: Array<Promise<void>> = [];
  const total = Math.round(ratePerSecond * seconds);
  const start = performance.now();
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const request = build();
      result.sent++;
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
          timeout: timeoutMs,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            result.answered++;
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) result.non2xx++;
            request.onResponse?.(status);
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        result.timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', (error) => {
        if (error.message !== 'timeout') result.errors++;
        resolve();
      });
      req.end(request.body);
    });
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { ...result, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(latencies.at(-1) ?? 0) };
}
