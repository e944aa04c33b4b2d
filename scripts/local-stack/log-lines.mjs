// Turns a service's raw output into short, prefixed lines for `npm start`: Nest's boot chatter
// (module loading, one line per route) is dropped, and the "[Nest] pid - date LEVEL [Context]"
// head is cut to the level when it is not LOG. `--verbose` keeps every line as it came.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matches terminal colour codes
const ANSI = /\u001b\[[0-9;]*m/g;
const NEST =
  /^\[Nest\] \d+\s+-\s+.*?\s+(LOG|WARN|ERROR|DEBUG|VERBOSE|FATAL)\s+\[([^\]]+)\]\s?(.*?)(?:\s\+\d+ms)?$/;
const BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** The line to print for one raw line of output, or null to drop it. */
export function shortLine(raw, { verbose = false } = {}) {
  const line = raw.replace(ANSI, '').replace(/\r$/, '');
  if (verbose) return line;
  if (line.trim() === '') return null;
  const nest = NEST.exec(line);
  if (!nest) return line;
  const [, level, context, message] = nest;
  if (level === 'LOG' && BOOT_CONTEXTS.has(context)) return null;
  return level === 'LOG' ? message : `${level} ${message}`;
}

/** Calls `onLine` with every complete line of a stream (and the last partial one at its end). */
export function eachLine(stream, onLine) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
    pending = '';
  });
}
