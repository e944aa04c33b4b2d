import type { RequestLogEntry, RequestLogQuery } from '../request-log/request-log.js';
import type { FaultKind, FaultPlan } from '../traffic/fault-plan.js';
import type { RateLimitSettings } from '../traffic/token-bucket.js';

/** What portal controls need of a started sandbox (a CatalogSandboxHarness has it). */
export interface PortalAccess {
  portal: {
    get(path: string): PromiseLike<{ status: number; body: unknown }>;
    post(path: string, body?: unknown): PromiseLike<{ status: number; body: unknown }>;
    put(path: string, body?: unknown): PromiseLike<{ status: number; body: unknown }>;
    patch(path: string, body?: unknown): PromiseLike<{ status: number; body: unknown }>;
    delete(path: string): PromiseLike<{ status: number; body: unknown }>;
  };
}

/** The fault counters of an account, as `GET .../faults` reports them. */
export interface FaultReport {
  plan: FaultPlan;
  /** Triggers left per planned fault kind; null when unlimited. */
  remaining: Partial<Record<FaultKind, number | null>>;
  injected: Record<FaultKind, number>;
}

/** One account's portal controls: request log, faults, rate limit, keys. */
export interface PortalControls {
  /** The account's `/v1` request log, oldest first (filters as `GET .../requests` takes them). */
  requests(query?: RequestLogFilter): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  /** Replaces the account's fault plan (README, "Fault injection"). */
  setFaults(plan: FaultPlan): Promise<void>;
  faults(): Promise<FaultReport>;
  /** Turns every fault off and zeroes the counters. */
  clearFaults(): Promise<void>;
  setRateLimit(settings: Partial<RateLimitSettings>): Promise<void>;
  setKeysActive(active: boolean): Promise<void>;
}

/** Request-log filters; numbers may be given as numbers or strings. */
export type RequestLogFilter = { [K in keyof RequestLogQuery]?: RequestLogQuery[K] | string };

/** The portal controls of one account of a started sandbox. */
export function portalFor(sandbox: PortalAccess, accountId: string): PortalControls {
  const base = `/portal/v1/accounts/${encodeURIComponent(accountId)}`;
  const must = async (what: string, reply: PromiseLike<{ status: number; body: unknown }>) => {
    const res = await reply;
    if (res.status !== 200) throw new Error(`${what} refused: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { data: unknown }).data;
  };
  return {
    async requests(query = {}) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query))
        if (value !== undefined) params.set(name, String(value));
      const qs = params.toString();
      const data = await must('request log', sandbox.portal.get(`${base}/requests${qs ? `?${qs}` : ''}`));
      return (data as { requests: RequestLogEntry[] }).requests;
    },
    async clearRequests() {
      await must('clearing the request log', sandbox.portal.delete(`${base}/requests`));
    },
    async setFaults(plan) {
      await must('faults', sandbox.portal.put(`${base}/faults`, plan));
    },
    async faults() {
      return (await must('fault report', sandbox.portal.get(`${base}/faults`))) as FaultReport;
    },
    async clearFaults() {
      await must('clearing faults', sandbox.portal.delete(`${base}/faults`));
    },
    async setRateLimit(settings) {
      await must('rate limit', sandbox.portal.patch(`${base}/rate-limit`, settings));
    },
    async setKeysActive(active) {
      const data = await must('api keys', sandbox.portal.get(`${base}/api-keys`));
      for (const key of (data as { apiKeys: Array<{ id: string }> }).apiKeys) {
        const action = active ? 'activate' : 'deactivate';
        await must(`${action} key`, sandbox.portal.post(`${base}/api-keys/${key.id}/${action}`));
      }
    },
  };
}
