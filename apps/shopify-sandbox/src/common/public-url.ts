import { Injectable } from '@nestjs/common';

/**
 * The base URL clients reach the sandbox at (for image `src`s). Configured, or known once
 * the server listens on its actual port.
 */
@Injectable()
export class PublicUrl {
  private base: string | undefined;

  set(url: string): void {
    this.base = url.replace(/\/+$/, '');
  }

  get value(): string {
    if (this.base === undefined) throw new Error('The sandbox public URL is not known before it listens');
    return this.base;
  }
}
