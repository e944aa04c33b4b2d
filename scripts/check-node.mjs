// Stops `npm start`, `npm test` and the scripts they run at once on a Node.js older than the
// project needs (package.json "engines"), with one line saying what to do. Older Node versions run
// parts of the toolchain into confusing failures (vitest's reporter crashed on Node 20), so this
// file keeps to syntax and APIs that old versions understand: no dependencies, nothing recent.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageJson = fileURLToPath(new URL('../package.json', import.meta.url));

/** The minimum version from package.json "engines.node" (">=22.12" -> [22, 12, 0]). */
export function requiredNodeVersion() {
  const range = JSON.parse(readFileSync(packageJson, 'utf8')).engines.node;
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=X.Y", got "${range}"`);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

/** The one-line complaint for `version` ("v20.20.2"), or null when it is recent enough. */
export function nodeVersionProblem(version, required) {
  const need = required || requiredNodeVersion();
  const have = String(version).replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    if ((have[i] || 0) > need[i]) return null;
    if ((have[i] || 0) < need[i]) {
      const wanted = need[2] ? need.join('.') : `${need[0]}.${need[1]}`;
      return (
        `Node.js ${version} is too old for this project: it needs Node.js ${wanted} or newer (24 recommended). ` +
        'Run "nvm use" (it reads .nvmrc) or install Node.js 24, then "npm install" again.'
      );
    }
  }
  return null;
}

/** Exits the process with the complaint when the running Node.js is too old. */
export function assertSupportedNode() {
  const problem = nodeVersionProblem(process.version);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) assertSupportedNode();
