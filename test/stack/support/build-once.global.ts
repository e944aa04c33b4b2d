import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** True under CI (`.ci/run` sets CI): tools the stack tests need must be present there. */
    ci: boolean;
  }
}

/**
 * Runs once before the stack tests: builds dist/ as `npm start` does (swc, about a second), so
 * the tests run the real built services, and no two test files ever write dist/ at once.
 */
export default function setup(project: TestProject): void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  project.provide('ci', Boolean(process.env.CI));
}
