// A strict reader for the subset of YAML 1.2 that action.yml is written in: block mappings, block sequences (of
// mappings or plain scalars), plain single-line scalars and `|` literal blocks, with `#` comments. Anything outside
// the subset — flow collections, quoted or folded scalars, anchors, tags, tabs, a plain scalar a full YAML parser
// would read differently — is refused with its line number, so what this reader accepts means the same to the runner.

/** A value of the subset: every scalar is read as a string. */
export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

/** Why a document is outside the subset, with its 1-based line. */
export class YamlSubsetError extends Error {
  override readonly name = 'YamlSubsetError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

interface _Line {
  readonly n: number;
  readonly indent: number;
  /** The line less its indentation (comments still in). */
  readonly text: string;
}

const KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?: (.*))?$/;

/** A plain scalar as YAML reads it in block context: trailing ` #` comment dropped, refused where it would not be plain. */
function plain(raw: string, n: number): string {
  const hash = raw.search(/(^|\s)#/);
  const v = (hash < 0 ? raw : raw.slice(0, hash)).trim();
  if (v === '') throw new YamlSubsetError(n, 'an empty value (null in YAML): write the key with a nested block, or leave it out');
  // yaml 1.2 §7.3.3: a plain scalar cannot start with an indicator, nor contain ": " or " #"
  if (/^[[\]{}&*!|>'"%@`,?:-]/.test(v) && !/^-[^\s]/.test(v)) throw new YamlSubsetError(n, `${JSON.stringify(v)} starts with an indicator: outside the subset`);
  if (/: |:$/.test(v)) throw new YamlSubsetError(n, `${JSON.stringify(v)} holds ": ", which YAML reads as a mapping`);
  return v;
}

/** Reads a document of the subset; throws YamlSubsetError outside it. */
export function parseYamlSubset(text: string): YamlValue {
  if (text.includes('\r')) throw new YamlSubsetError(1, 'carriage returns: write LF line ends');
  const raw = text.split('\n');
  let i = 0;

  /** The next line that is neither blank nor a comment, without consuming it. */
  const peek = (): _Line | undefined => {
    for (let j = i; j < raw.length; j++) {
      const s = raw[j]!;
      if (/^\s*(#.*)?$/.test(s)) continue;
      const lead = /^ */.exec(s)![0].length;
      if (s[lead] === '\t') throw new YamlSubsetError(j + 1, 'a tab in the indentation');
      i = j;
      return { n: j + 1, indent: lead, text: s.slice(lead) };
    }
    i = raw.length;
    return undefined;
  };

  /** A `|` literal block whose parent sits at `parent` indentation: clip chomping (one final newline). */
  const literal = (parent: number): string => {
    const body: string[] = [];
    let indent = -1;
    while (i < raw.length) {
      const s = raw[i]!;
      if (s.trim() === '') {
        body.push('');
        i++;
        continue;
      }
      const lead = /^ */.exec(s)![0].length;
      if (lead <= parent) break;
      if (indent < 0) indent = lead;
      if (lead < indent) throw new YamlSubsetError(i + 1, 'a literal block line indented less than its first line');
      body.push(s.slice(indent));
      i++;
    }
    while (body.length && body[body.length - 1] === '') body.pop();
    if (!body.length) throw new YamlSubsetError(i, 'an empty literal block');
    return body.join('\n') + '\n';
  };

  /** The value after `key:` on line n (inline text, or the block below it). */
  const valueAfter = (rest: string | undefined, n: number, indent: number): YamlValue => {
    if (rest === '|') return literal(indent);
    if (rest !== undefined && rest.trim() !== '' && !/^\s*#/.test(rest)) return plain(rest, n);
    i = n; // past the key's line
    const next = peek();
    if (!next || next.indent <= indent) {
      // yaml: a sequence may sit at its key's own indentation
      if (next && next.indent === indent && next.text.startsWith('- ')) return block(indent);
      throw new YamlSubsetError(n, 'a key with no value (null in YAML)');
    }
    return block(next.indent);
  };

  /** A mapping whose entries start at `indent`; `first` is an entry already split off a `- ` line. */
  const mapping = (indent: number, first?: _Line): { [key: string]: YamlValue } => {
    const out: { [key: string]: YamlValue } = {};
    let line: _Line | undefined = first ?? peek();
    while (line && line.indent === indent && !line.text.startsWith('- ')) {
      const m = KEY.exec(line.text);
      if (!m) throw new YamlSubsetError(line.n, `expected "key: value", found ${JSON.stringify(line.text)}`);
      const key = m[1]!;
      if (Object.hasOwn(out, key)) throw new YamlSubsetError(line.n, `the key ${key} appears twice`);
      i = line.n;
      out[key] = valueAfter(m[2], line.n, indent);
      line = peek();
    }
    if (line && line.indent > indent) throw new YamlSubsetError(line.n, 'indented deeper than its mapping');
    return out;
  };

  /** A sequence whose `- ` marks sit at `indent`. */
  const sequence = (indent: number): YamlValue[] => {
    const out: YamlValue[] = [];
    let line = peek();
    while (line && line.indent === indent && line.text.startsWith('- ')) {
      const item = line.text.slice(2);
      const inner = indent + 2 + (/^ */.exec(item)![0].length);
      const text = item.trimStart();
      if (KEY.test(text)) out.push(mapping(inner, { n: line.n, indent: inner, text }));
      else {
        out.push(plain(text, line.n));
        i = line.n;
      }
      line = peek();
    }
    if (line && line.indent > indent) throw new YamlSubsetError(line.n, 'indented deeper than its sequence');
    return out;
  };

  const block = (indent: number): YamlValue => (peek()?.text.startsWith('- ') ? sequence(indent) : mapping(indent));

  const first = peek();
  if (!first) throw new YamlSubsetError(1, 'an empty document');
  if (first.indent !== 0) throw new YamlSubsetError(first.n, 'the document must start at column 1');
  if (first.text === '---' || first.text.startsWith('%')) throw new YamlSubsetError(first.n, 'document markers and directives are outside the subset');
  const doc = block(0);
  const rest = peek();
  if (rest) throw new YamlSubsetError(rest.n, `unexpected ${JSON.stringify(rest.text)}`);
  return doc;
}
