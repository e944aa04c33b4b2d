import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A fenced code block of a Markdown file, with the HTML comment that precedes it, if any. */
export interface MarkdownExample {
  /** Path relative to the repository's root. */
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  language: string;
  code: string;
  /** `<!-- not run: why; covered by <path> -->` before the block: the reason, else null. */
  notRun: string | null;
  /** `<!-- file: <path> -->` before the block: the file whose content the block shows, else null. */
  showsFile: string | null;
}

const SHELLS = new Set(['sh', 'bash', 'shell', 'zsh']);
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);

/** Every Markdown file of the repository (READMEs, docs/, apps' docs), sorted. */
export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name));
      } else if (entry.name.endsWith('.md')) {
        found.push(relative(root, join(dir, entry.name)));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** The fenced code blocks of one Markdown file. */
export function markdownExamples(root: string, file: string): MarkdownExample[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const examples: MarkdownExample[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] as string);
    if (!open) continue;
    const fence = open[1] as string;
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).startsWith(fence)) end += 1;
    let before = i - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before -= 1;
    const comment =
      before >= 0 ? /^<!--\s*([\w ]+):\s*(.*?)\s*-->$/.exec((lines[before] as string).trim()) : null;
    examples.push({
      file,
      line: i + 1,
      language: (open[2] as string).toLowerCase(),
      code: lines.slice(i + 1, end).join('\n'),
      notRun: comment?.[1] === 'not run' ? (comment[2] as string) : null,
      showsFile: comment?.[1] === 'file' ? (comment[2] as string) : null,
    });
    i = end;
  }
  return examples;
}

/** Every shell block (sh, bash, shell, zsh) of every Markdown file, in file order. */
export function shellExamples(root: string): MarkdownExample[] {
  return markdownFiles(root)
    .flatMap((file) => markdownExamples(root, file))
    .filter((example) => SHELLS.has(example.language));
}

/** Every block that says which file it shows (`<!-- file: path -->`). */
export function fileExamples(root: string): MarkdownExample[] {
  return markdownFiles(root)
    .flatMap((file) => markdownExamples(root, file))
    .filter((example) => example.showsFile !== null);
}

/** Each `curl` command of a shell block, with its continuation lines joined. */
export function curlCommands(code: string): string[] {
  const joined = code.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .flatMap((line) => line.split(/(?=\bcurl\s)/).slice(1))
    .map((command) => command.trim());
}
