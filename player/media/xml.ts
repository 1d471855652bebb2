// A small strict XML reader for DASH manifests: elements, attributes, text, comments, CDATA, processing
// instructions and the five predefined and numeric entities. It refuses what is not well-formed (mismatched or
// unclosed tags, stray text outside the root, bad attributes) with the line where it went wrong; DTDs are refused
// (an MPD has none, and entity definitions are a way to make a parser do harm).

export interface XmlElement {
  /** Local name, namespace prefix removed ("MPD", "SegmentTemplate"). */
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

const nameChars = /[A-Za-z0-9_:.\-]/;

function decodeEntities(raw: string, lineOf: () => number): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new XmlError(`line ${lineOf()}: "&" not followed by an entity reference`);
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (body in named) return named[body]!;
    const numeric = /^#(x[0-9A-Fa-f]+|[0-9]+)$/.exec(body);
    if (numeric) return String.fromCodePoint(numeric[1]!.startsWith('x') ? parseInt(numeric[1]!.slice(1), 16) : Number(numeric[1]));
    throw new XmlError(`line ${lineOf()}: unknown entity "&${body};"`);
  });
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

export function parseXml(text: string): XmlElement {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineOf = (): number => text.slice(0, pos).split('\n').length;
  const fail = (message: string): never => { throw new XmlError(`line ${lineOf()}: ${message}`); };
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;

  const readName = (): string => {
    const start = pos;
    while (pos < text.length && nameChars.test(text[pos]!)) pos++;
    if (pos === start) fail(`expected a name at "${text.slice(pos, pos + 20)}"`);
    return text.slice(start, pos);
  };
  const skipSpace = (): void => { while (pos < text.length && /\s/.test(text[pos]!)) pos++; };
  const skipPast = (terminator: string, what: string): string => {
    const end = text.indexOf(terminator, pos);
    if (end < 0) fail(`unterminated ${what}`);
    const body = text.slice(pos, end);
    pos = end + terminator.length;
    return body;
  };

  while (pos < text.length) {
    if (text[pos] !== '<') {
      const end = text.indexOf('<', pos);
      const raw = text.slice(pos, end < 0 ? text.length : end);
      const top = stack[stack.length - 1];
      if (top) top.text += decodeEntities(raw, lineOf);
      else if (raw.trim() !== '') fail(`text outside the root element: "${raw.trim().slice(0, 40)}"`);
      pos = end < 0 ? text.length : end;
      continue;
    }
    if (text.startsWith('<!--', pos)) { pos += 4; skipPast('-->', 'comment'); continue; }
    if (text.startsWith('<![CDATA[', pos)) {
      pos += 9;
      const body = skipPast(']]>', 'CDATA section');
      const top = stack[stack.length - 1];
      if (!top) fail('CDATA outside the root element');
      top!.text += body;
      continue;
    }
    if (text.startsWith('<?', pos)) { pos += 2; skipPast('?>', 'processing instruction'); continue; }
    if (text.startsWith('<!', pos)) fail('document type declarations are not accepted in a manifest');
    if (text.startsWith('</', pos)) {
      pos += 2;
      const name = readName();
      skipSpace();
      if (text[pos] !== '>') fail(`expected ">" to close </${name}`);
      pos++;
      const open = stack.pop();
      if (!open) fail(`closing tag </${name}> without an open element`);
      if (open!.name !== localName(name)) fail(`closing tag </${name}> does not match <${open!.name}>`);
      continue;
    }
    pos++;
    if (root && stack.length === 0) fail('a second root element');
    const element: XmlElement = { name: localName(readName()), attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (text.startsWith('/>', pos)) { pos += 2; break; }
      if (text[pos] === '>') { pos++; stack.push(element); break; }
      if (pos >= text.length) fail(`unterminated tag <${element.name}`);
      const attr = readName();
      skipSpace();
      if (text[pos] !== '=') fail(`attribute ${attr} of <${element.name}> has no value`);
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(`attribute ${attr} of <${element.name}> is not quoted`);
      pos++;
      const value = skipPast(quote!, `attribute ${attr}`);
      if (value.includes('<')) fail(`"<" in attribute ${attr} of <${element.name}>`);
      if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
      element.attributes[localName(attr)] = decodeEntities(value, lineOf);
    }
    const parent = stack[stack.length - (stack[stack.length - 1] === element ? 2 : 1)];
    if (parent) parent.children.push(element);
    else root = element;
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new XmlError('no root element (empty or not XML)');
  return root;
}
