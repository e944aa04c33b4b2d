// Types of check-node.mjs, for the tests that import it.
/** The minimum version from package.json "engines.node", as [major, minor, patch]. */
export function requiredNodeVersion(): [number, number, number];
/** The one-line complaint for `version` ("v20.20.2"), or null when it is recent enough. */
export function nodeVersionProblem(version: string, required?: [number, number, number]): string | null;
/** Exits the process with the complaint when the running Node.js is too old. */
export function assertSupportedNode(): void;
