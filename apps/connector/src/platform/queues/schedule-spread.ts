/** A spread schedule ticks at most this many times per period. */
export const TICKS_PER_PERIOD = 60;
/** ... and never more often than this: a shorter period is not spread (every shop each run). */
export const MIN_TICK_MS = 10_000;

/**
 * Why: a schedule that visits every shop (the subscription check, the enrichment poll, the
 * reconciliation, the scope walk, the drift report) would otherwise do all of them at the same
 * second, once a period: 200 shops' calls at once, then nothing. Spread, its scheduler ticks
 * `TICKS_PER_PERIOD` times a period (never more often than `MIN_TICK_MS`), and each tick takes
 * the shops whose turn came since the last one: each shop's turn is a fixed offset within the
 * period (a hash of the schedule and the domain, `turnOffset`), so the shops are spread evenly,
 * each still once a period. The scheduler is still one BullMQ job scheduler per queue: each tick
 * is one job across replicas. A period shorter than two ticks is not spread (tests, demos).
 */
export function tickMs(periodMs: number): number {
  const ticks = Math.min(TICKS_PER_PERIOD, Math.floor(periodMs / MIN_TICK_MS));
  return ticks < 2 ? periodMs : Math.floor(periodMs / ticks);
}

/** Where in the period a shop's turn of one schedule falls (ms from the period's start, stable). */
export function turnOffset(schedule: string, domain: string, periodMs: number): number {
  return fnv1a(`${schedule}:${domain}`) % periodMs;
}

/**
 * Whether the shop's turn of the schedule came in the tick that ends at `tickAt`: its turn time
 * (its offset plus a whole number of periods) is in `(tickAt - tick, tickAt]`. The ticks of a
 * scheduler follow each other exactly (their nominal times, `nominalTickTime`), so their windows
 * tile the time: each turn falls in one tick's window, each shop is taken once a period.
 *
 * Unless a tick is taken late: BullMQ schedules a scheduler's next job when a worker takes the
 * current one, and skips the slots already past then (a poll worker busy for 30 s skips two
 * ticks of 10 s). The skipped ticks never run, so the tick taken at `takenAt` covers them too:
 * its window runs to `takenAt` (at most a period long). The next job's window starts a tick
 * before its slot, which lies after `takenAt`: the windows overlap a little, never leave a gap (a
 * shop in the overlap is taken twice, which every spread schedule allows).
 */
export function turnDue(
  schedule: string,
  domain: string,
  periodMs: number,
  tickAt: number,
  takenAt: number = tickAt,
): boolean {
  const tick = tickMs(periodMs);
  if (tick >= periodMs) return true;
  const end = Math.max(tickAt, takenAt);
  const span = end - tickAt + tick;
  if (span >= periodMs) return true;
  const since = mod(end - turnOffset(schedule, domain, periodMs), periodMs);
  return since < span;
}

/**
 * The nominal time of a scheduler's job, from its id (`repeat:<scheduler>:<millis>`, BullMQ's id of
 * each iteration): when it was due, not when a worker took it (a late start moves no window).
 * Null for any other job (asked for by hand, or a job id of another shape).
 */
export function nominalTickTime(jobId: string | undefined): number | null {
  const found = /^repeat:.+:(\d+)$/.exec(jobId ?? '');
  return found ? Number(found[1]) : null;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/** 32-bit FNV-1a of a string's UTF-16 code units: cheap, stable, well spread. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
