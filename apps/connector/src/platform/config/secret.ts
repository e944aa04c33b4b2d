import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A configuration value that must never reach a log or a response (access tokens, webhook
 * secrets, API keys). Printing, inspecting or serialising it yields `[redacted]`; only
 * `reveal()` gives the value, at the one place that sends it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}
