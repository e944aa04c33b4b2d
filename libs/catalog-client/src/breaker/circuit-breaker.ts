import type { Clock } from '#lib/clock';
import { callSafely } from '../metrics/call-safely.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

/** Why the breaker opened: a refused key (401/403), or a run of 5xx answers and time-outs. */
export type BreakerOpenReason = 'auth' | 'unavailable';

export interface CircuitBreakerOptions {
  /** Consecutive 5xx answers, time-outs or dropped connections that open the breaker. Default 5. */
  failureThreshold?: number;
  /** Wait before the first half-open probe after failures. Default 30 s. */
  cooldownMs?: number;
  /** Wait before the first half-open probe after a 401/403 (key changes take 30 to 60 s). Default 60 s. */
  authCooldownMs?: number;
  /** Each failed probe doubles the wait, up to this. Default 5 min. */
  maxCooldownMs?: number;
  /**
   * Who lets the half-open probe go once the cool-down has ended: `self` (default), the next
   * call; `granted`, only a call after `allowProbe()`. For a breaker whose state several
   * processes share (`adopt`): one of them wins the right to probe, the others keep waiting.
   */
  probes?: 'self' | 'granted';
}

export interface BreakerSnapshot {
  state: BreakerState;
  reason: BreakerOpenReason | null;
  consecutiveFailures: number;
  /** When the next probe may go (epoch ms, the client's clock); null when closed. */
  retryAt: number | null;
}

export interface BreakerTransition {
  from: BreakerState;
  to: BreakerState;
  reason: BreakerOpenReason | null;
  /** Adopted from another process (`adopt`): the answers behind it were that process's. */
  shared: boolean;
}

/**
 * A breaker's state as processes sharing it publish and `adopt` it: closed, or open with why,
 * when the next probe may go (epoch ms) and the cool-down that led there (a failed probe doubles it).
 */
export type SharedBreakerState =
  | { state: 'closed' }
  | { state: 'open'; reason: BreakerOpenReason; retryAt: number; cooldownMs: number };

/** Permission to send one call; hand it back with the call's verdict. */
export interface BreakerPermit {
  readonly probe: boolean;
}

/**
 * Stops the client from burning its budget and retries against a catalog that refuses its key or
 * is down. Closed: calls pass. Open: calls fail fast, unsent. After the cool-down the next call is
 * the one half-open probe (others still fail fast); its success closes the breaker, its failure
 * re-opens it with twice the cool-down. A 401/403 opens it at once; so do `failureThreshold`
 * consecutive 5xx answers or time-outs. Any other answer (2xx, 4xx, 429) counts as healthy.
 * Processes sharing one account can share its state: each publishes `shared` on its own
 * transitions and `adopt`s the others'; with `probes: 'granted'` the one that won the probe
 * (its own bookkeeping) calls `allowProbe`.
 */
export class CircuitBreaker {
  private current: BreakerState = 'closed';
  private reason: BreakerOpenReason | null = null;
  private failures = 0;
  private retryAt: number | null = null;
  private cooldown = 0;
  private probeInFlight = false;
  private probeGranted = false;
  private readonly listeners = new Set<(transition: BreakerTransition) => void>();
  private readonly options: Required<CircuitBreakerOptions>;
  private readonly clock: Clock;

  constructor(clock: Clock, options: CircuitBreakerOptions = {}) {
    this.clock = clock;
    this.options = {
      failureThreshold: options.failureThreshold ?? 5,
      cooldownMs: options.cooldownMs ?? 30_000,
      authCooldownMs: options.authCooldownMs ?? 60_000,
      maxCooldownMs: options.maxCooldownMs ?? 300_000,
      probes: options.probes ?? 'self',
    };
  }

  get state(): BreakerState {
    return this.current;
  }

  get snapshot(): BreakerSnapshot {
    return {
      state: this.current,
      reason: this.reason,
      consecutiveFailures: this.failures,
      retryAt: this.retryAt,
    };
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: (transition: BreakerTransition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A permit to send, or null when the call must fail fast. */
  tryAdmit(): BreakerPermit | null {
    switch (this.current) {
      case 'closed':
        return { probe: false };
      case 'open':
        if (!this.probeGranted) {
          if (this.options.probes === 'granted') return null;
          if (this.retryAt !== null && this.clock.now() < this.retryAt) return null;
        }
        this.transition('half-open');
        this.probeInFlight = true;
        return { probe: true };
      case 'half-open':
        if (this.probeInFlight) return null;
        this.probeInFlight = true;
        return { probe: true };
      default: {
        const unreachable: never = this.current;
        throw new Error(`unknown breaker state ${String(unreachable)}`);
      }
    }
  }

  /**
   * Asked again once the rate limiter has granted the slot (the wait can be long): whether the
   * permit still allows sending. A normal permit needs the breaker closed; the probe's permit
   * needs it still half-open (another call's 401 may have re-opened it meanwhile). When this
   * answers false, hand the permit back with `release`.
   */
  stillAdmits(permit: BreakerPermit): boolean {
    if (this.current === 'closed') return true;
    return permit.probe && this.current === 'half-open';
  }

  /** The catalog answered and the key works. */
  recordSuccess(permit: BreakerPermit): void {
    this.failures = 0;
    if (!permit.probe) return;
    this.probeInFlight = false;
    this.cooldown = 0;
    this.retryAt = null;
    this.reason = null;
    if (this.current !== 'closed') this.transition('closed');
  }

  /** 401/403, or a 5xx / time-out / dropped connection. */
  recordFailure(permit: BreakerPermit, kind: BreakerOpenReason): void {
    if (permit.probe) {
      this.probeInFlight = false;
      this.open(
        kind,
        Math.min(this.options.maxCooldownMs, Math.max(this.baseCooldown(kind), this.cooldown * 2)),
      );
      return;
    }
    if (kind === 'auth') {
      if (this.current !== 'open' || this.reason !== 'auth') this.open('auth', this.baseCooldown('auth'));
      return;
    }
    this.failures += 1;
    if (this.current === 'closed' && this.failures >= this.options.failureThreshold) {
      this.open('unavailable', this.baseCooldown('unavailable'));
    }
  }

  /** The call ended without reaching the catalog (e.g. the limiter failed): no verdict. */
  release(permit: BreakerPermit): void {
    if (permit.probe) this.probeInFlight = false;
  }

  /** Closes the breaker (e.g. after an operator replaced the key). */
  reset(): void {
    this.close(false);
  }

  /**
   * Lets the next call be the half-open probe now, cool-down or not (with `probes: 'granted'`,
   * the only way one goes). Does nothing unless the breaker is open.
   */
  allowProbe(): void {
    if (this.current === 'open') this.probeGranted = true;
  }

  /** What processes sharing this breaker publish of it (half-open reads as open: the probe is out). */
  get shared(): SharedBreakerState {
    if (this.current === 'closed' || this.reason === null || this.retryAt === null)
      return { state: 'closed' };
    return { state: 'open', reason: this.reason, retryAt: this.retryAt, cooldownMs: this.cooldown };
  }

  /**
   * Takes the state another process published (`shared`): open (its calls fail fast, unsent,
   * until a probe) or closed. A probe of this process still out keeps its permit: its verdict
   * counts when it comes. Transitions it makes say `shared: true`.
   */
  adopt(state: SharedBreakerState): void {
    if (state.state === 'closed') {
      this.close(true);
      return;
    }
    this.reason = state.reason;
    this.cooldown = state.cooldownMs;
    this.retryAt = state.retryAt;
    if (this.current !== 'open') this.transition('open', true);
  }

  private close(shared: boolean): void {
    this.failures = 0;
    this.cooldown = 0;
    this.retryAt = null;
    this.reason = null;
    this.probeInFlight = false;
    if (this.current !== 'closed') this.transition('closed', shared);
  }

  private baseCooldown(kind: BreakerOpenReason): number {
    return kind === 'auth' ? this.options.authCooldownMs : this.options.cooldownMs;
  }

  private open(reason: BreakerOpenReason, cooldownMs: number): void {
    this.reason = reason;
    this.cooldown = cooldownMs;
    this.retryAt = this.clock.now() + cooldownMs;
    if (this.current !== 'open') this.transition('open');
  }

  private transition(to: BreakerState, shared = false): void {
    const from = this.current;
    this.current = to;
    this.probeGranted = false;
    const transition = { from, to, reason: this.reason, shared };
    // A listener's failure (throw or rejection) must not break the client.
    for (const listener of this.listeners) callSafely(() => listener(transition));
  }
}
