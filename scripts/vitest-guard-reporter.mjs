// Vitest reporter used by run-vitest.mjs, always last in the list: records how the run ended in
// the file named by VITEST_GUARD_OUTCOME_FILE. Vitest calls reporters in order and stops at one
// that throws, so a missing file means an earlier reporter crashed (or the run never ended).
import { writeFileSync } from 'node:fs';

export default class VitestGuardReporter {
  onTestRunEnd(testModules, unhandledErrors, reason) {
    const file = process.env.VITEST_GUARD_OUTCOME_FILE;
    if (!file) return;
    let failedTests = 0;
    let tests = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        tests += 1;
        if (test.result().state === 'failed') failedTests += 1;
      }
    }
    const outcome = {
      reason,
      modules: testModules.length,
      failedModules: testModules.filter((module) => module.state() === 'failed').length,
      tests,
      failedTests,
      unhandledErrors: unhandledErrors.length,
    };
    writeFileSync(file, JSON.stringify(outcome));
  }
}
