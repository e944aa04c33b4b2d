/** Comment lines are wrapped to this width (the entries themselves never are). */
const WIDTH = 100;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
const PLAIN = /^[A-Za-z][A-Za-z0-9 _./&()+'-]*$/;

/**
 * Why: a drafted mapping is written for a person to finish, so it is YAML with comments (the
 * format the connector reads, `parseMappingFile`): this writes it line by line, every key and
 * value quoted when YAML would read it otherwise (`"36"`, `"yes"`, `"Sale: 50%"`).
 */
export class YamlLines {
  private readonly lines: string[] = [];

  /** `# text`, wrapped, at `indent` spaces. */
  comment(indent: number, text: string): this {
    const pad = ' '.repeat(indent);
    let line = '';
    for (const word of oneLine(text).split(' ')) {
      if (line !== '' && pad.length + 2 + line.length + 1 + word.length > WIDTH) {
        this.lines.push(`${pad}# ${line}`);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    this.lines.push(line === '' ? `${pad}#` : `${pad}# ${line}`);
    return this;
  }

  /** `key: value  # note`; without a value, `key:` opens a block. */
  pair(indent: number, key: string, value?: string, note?: string): this {
    const head = `${' '.repeat(indent)}${yamlScalar(key)}:${value === undefined ? '' : ` ${yamlScalar(value)}`}`;
    this.lines.push(note === undefined ? head : `${head} # ${oneLine(note)}`);
    return this;
  }

  /** A line as given (a list item, a flow value). */
  raw(indent: number, text: string): this {
    this.lines.push(`${' '.repeat(indent)}${text}`);
    return this;
  }

  blank(): this {
    this.lines.push('');
    return this;
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** A string as a YAML scalar: plain when YAML reads it back as that string, else double-quoted. */
export function yamlScalar(value: string): string {
  if (PLAIN.test(value) && !RESERVED.test(value) && value === value.trim()) return value;
  return JSON.stringify(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
