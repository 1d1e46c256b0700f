// Streams only the customer's text of a speak round. A structured round arrives as the JSON
// envelope `{"message":"…","cidade":…}`; a host streaming to customers must show the text of
// `message` as it arrives, never the JSON around it. A round whose text is not JSON (a provider
// that answers in plain text) streams as is.

type Mode = 'sniff' | 'plain' | 'json' | 'done';

/**
 * Decodes the top-level `"message"` string of a JSON object incrementally: `push` takes the next
 * piece of raw text and returns the newly decoded message text (possibly ""). Escapes split
 * across pieces are held until complete; a surrogate pair is never split between two returns.
 */
export class EnvelopeMessageDecoder {
  private mode: Mode = 'sniff';
  private lead = '';
  private depth = 0;
  /** Inside a string: which one, and the escape being read. */
  private inString = false;
  private stringRole: 'key' | 'message' | 'other' = 'other';
  private escape: string | undefined;
  private key = '';
  private lastKey = '';
  /** The last structural character seen at depth 1 (`{`, `,` or `:`). */
  private lastMark = '';
  private heldSurrogate = '';

  push(piece: string): string {
    if (this.mode === 'plain') return piece;
    if (this.mode === 'done') return '';
    let out = '';
    for (const ch of piece) {
      if (this.mode === 'sniff') {
        if (/\s/.test(ch)) {
          this.lead += ch;
          continue;
        }
        if (ch !== '{') {
          this.mode = 'plain';
          out += this.lead + ch;
          continue;
        }
        this.mode = 'json';
      }
      if (this.mode === 'plain') {
        out += ch;
        continue;
      }
      if (this.finished()) break;
      out += this.step(ch);
    }
    return out;
  }

  // A method, so TS does not narrow `mode` across calls that change it.
  private finished(): boolean {
    return this.mode === 'done';
  }

  private step(ch: string): string {
    if (this.inString) return this.stringChar(ch);
    if (ch === '"') {
      this.inString = true;
      this.key = '';
      if (this.depth !== 1) this.stringRole = 'other';
      else if (this.lastMark === ':') this.stringRole = this.lastKey === 'message' ? 'message' : 'other';
      else this.stringRole = 'key';
      return '';
    }
    if (ch === '{' || ch === '[') this.depth += 1;
    else if (ch === '}' || ch === ']') {
      this.depth -= 1;
      if (this.depth <= 0) this.mode = 'done';
    } else if (this.depth === 1 && (ch === ',' || ch === ':')) this.lastMark = ch;
    if (this.depth === 1 && ch === '{') this.lastMark = '{';
    return '';
  }

  private stringChar(ch: string): string {
    let decoded: string;
    if (this.escape !== undefined) {
      this.escape += ch;
      const done = unescape(this.escape);
      if (done === undefined) return '';
      this.escape = undefined;
      decoded = done;
    } else if (ch === '\\') {
      this.escape = '';
      return '';
    } else if (ch === '"') {
      this.inString = false;
      if (this.stringRole === 'key') {
        this.lastKey = this.key;
        this.lastMark = '';
      }
      if (this.stringRole === 'message') {
        // The first message value is the one shown; nothing after it reaches the stream.
        this.mode = 'done';
        const held = this.heldSurrogate;
        this.heldSurrogate = '';
        return held;
      }
      return '';
    } else {
      decoded = ch;
    }
    if (this.stringRole === 'key') {
      this.key += decoded;
      return '';
    }
    if (this.stringRole !== 'message') return '';
    return this.release(decoded);
  }

  /** Holds a lone high surrogate until its pair arrives, so no delta carries half a character. */
  private release(text: string): string {
    const joined = this.heldSurrogate + text;
    this.heldSurrogate = '';
    const last = joined.charCodeAt(joined.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.heldSurrogate = joined.slice(-1);
      return joined.slice(0, -1);
    }
    return joined;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The character an escape body (after the backslash) stands for, or undefined while incomplete. */
function unescape(body: string): string | undefined {
  if (body[0] !== 'u') return SIMPLE_ESCAPES[body[0]] ?? body[0];
  if (body.length < 5) return undefined;
  const code = Number.parseInt(body.slice(1, 5), 16);
  return Number.isNaN(code) ? '' : String.fromCharCode(code);
}
