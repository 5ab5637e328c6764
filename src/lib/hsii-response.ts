// Reading an HSII response (HSII §5.2.1 stage 1, Appendix B.3, B.5): the
// chosen next target and the utterance, however the model phrased them; and
// matching the target against the gold target's accepted names (stage 2).

export type ParseRoute = "json" | "lines" | "at";

export type ParsedResponse =
  | {ok: true; target: string; utterance: string; route: ParseRoute}
  | {ok: false; problem: string};

const TARGET_KEYS = ["target", "next_target", "nexttarget", "next target", "selected_target", "addressee", "recipient", "to", "speak_to", "talk_to", "next_speaker"];
const UTTERANCE_KEYS = ["utterance", "response", "content", "message", "reply", "say", "speech", "text", "dialogue"];

const normKey = (k: string) => k.trim().toLowerCase().replace(/[\s-]+/g, "_").replace(/^_+|_+$/g, "");

/** A small reader for the relaxed JSON models write: single or double quotes, bare keys, trailing commas, comments. */
function parseRelaxedObject(text: string, start: number): {value: Record<string, unknown>; end: number} | null {
  let i = start;
  const ws = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text.startsWith("//", i)) while (i < text.length && text[i] !== "\n") i++;
      else break;
    }
  };
  const str = (): string | null => {
    const q = text[i];
    if (q !== '"' && q !== "'") return null;
    i++;
    let out = "";
    while (i < text.length && text[i] !== q) {
      if (text[i] === "\\" && i + 1 < text.length) {
        const e = text[++i]!;
        out += e === "n" ? "\n" : e === "t" ? "\t" : e;
      } else {
        out += text[i];
      }
      i++;
    }
    if (i >= text.length) return null;
    i++;
    return out;
  };
  const value = (): unknown => {
    ws();
    if (text[i] === "{") return object();
    if (text[i] === "[") {
      i++;
      const list: unknown[] = [];
      for (;;) {
        ws();
        if (text[i] === "]") {
          i++;
          return list;
        }
        const v = value();
        if (v === undefined) return undefined;
        list.push(v);
        ws();
        if (text[i] === ",") i++;
      }
    }
    const s = str();
    if (s !== null) return s;
    const m = /^(true|false|null|-?\d+(?:\.\d+)?)/.exec(text.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return m[0] === "true" ? true : m[0] === "false" ? false : m[0] === "null" ? null : Number(m[0]);
  };
  const object = (): Record<string, unknown> | undefined => {
    i++; // {
    const out: Record<string, unknown> = {};
    for (;;) {
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      let key = str();
      if (key === null) {
        const m = /^[A-Za-z_$][\w$ -]*?(?=\s*:)/.exec(text.slice(i));
        if (!m) return undefined;
        key = m[0];
        i += m[0].length;
      }
      ws();
      if (text[i] !== ":") return undefined;
      i++;
      const v = value();
      if (v === undefined) return undefined;
      out[key] = v;
      ws();
      if (text[i] === ",") i++;
      else if (text[i] !== "}") return undefined;
    }
  };
  const v = object();
  return v ? {value: v, end: i} : null;
}

function pick(obj: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const [k, v] of Object.entries(obj)) {
    if (keys.includes(normKey(k)) || keys.includes(k.trim().toLowerCase())) {
      if (typeof v === "string" && v.trim()) return v.trim();
      if (Array.isArray(v) && typeof v[0] === "string" && v[0].trim()) return v[0].trim();
    }
  }
  // One level down: {"response": {"target": …, "utterance": …}}.
  for (const v of Object.values(obj)) {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const inner = pick(v as Record<string, unknown>, keys);
      if (inner) return inner;
    }
  }
  return null;
}

function fromJson(text: string): ParsedResponse | null {
  const fenced = /```(?:json|JSON|js)?\s*\n?([\s\S]*?)```/.exec(text);
  for (const source of fenced ? [fenced[1]!, text] : [text]) {
    for (let at = source.indexOf("{"); at >= 0; at = source.indexOf("{", at + 1)) {
      const parsed = parseRelaxedObject(source, at);
      if (!parsed) continue;
      const target = pick(parsed.value, TARGET_KEYS);
      const utterance = pick(parsed.value, UTTERANCE_KEYS);
      if (target && utterance) return {ok: true, target, utterance, route: "json"};
    }
  }
  return null;
}

const LABEL = (keys: readonly string[]) => new RegExp(`^\\s*[*_#>-]*\\s*(?:${keys.map((k) => k.replace(/_/g, "[ _]")).join("|")})\\s*[*_]*\\s*[:：=]\\s*[*_]*\\s*(.*)$`, "i");
const TARGET_LINE = LABEL(["next target", "target", "addressee", "recipient", "speak to", "talk to", "to", "next speaker"]);
const UTTERANCE_LINE = LABEL(["utterance", "response", "message", "reply", "say", "content", "speech", "dialogue"]);

const unquote = (s: string) => s.trim().replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "").trim();

function fromLines(text: string): ParsedResponse | null {
  const lines = text.split(/\r?\n/);
  let target: string | null = null;
  let utterance: string[] | null = null;
  for (const line of lines) {
    const t = TARGET_LINE.exec(line);
    const u = UTTERANCE_LINE.exec(line);
    if (t && target === null && !(utterance && utterance.length)) {
      target = unquote(t[1]!.replace(/[*_]+$/, ""));
    } else if (u && utterance === null) {
      utterance = [u[1]!];
    } else if (utterance !== null && line.trim() && !TARGET_LINE.test(line)) {
      utterance.push(line);
    } else if (utterance !== null && !line.trim() && utterance.join("").trim()) {
      break; // a blank line after the utterance ends it
    }
  }
  const said = utterance ? unquote(utterance.join("\n")) : "";
  return target && said ? {ok: true, target: target.replace(/^@/, ""), utterance: said, route: "lines"} : null;
}

function fromAt(text: string): ParsedResponse | null {
  // The name starts with a letter or digit: "@: hello" names nobody.
  const m = /(?:^|\n)\s*@([\p{L}\p{N}][^:：,\n@]{0,59}?)\s*[:：,]\s*([\s\S]+)$/u.exec(text) ?? /(?:^|\n)\s*@([\p{L}\p{N}]\S*)\s+([\s\S]+)$/u.exec(text);
  if (!m) return null;
  const utterance = unquote(m[2]!.split(/\n\s*\n/)[0]!);
  return utterance ? {ok: true, target: m[1]!.trim(), utterance, route: "at"} : null;
}

/** Stage 1: extracts target and utterance; tries JSON, then labelled lines, then an @Name form. */
export function parseResponse(text: string): ParsedResponse {
  if (!text.trim()) return {ok: false, problem: "the response is empty"};
  return fromJson(text) ?? fromLines(text) ?? fromAt(text) ?? {ok: false, problem: "no target and utterance found (expected JSON, 'Target: … / Utterance: …' lines, or '@Name: …')"};
}

const HONORIFICS = /^(?:mr|mrs|ms|miss|mx|dr|prof|professor|sir|madam|madame|mister|lady|lord|dame|aunt|uncle|officer|captain)\.?\s+/;

/** A name as compared: lower case, no honorific, no punctuation, single spaces. */
export function normaliseName(name: string): string {
  let s = name.normalize("NFKC").toLowerCase().trim().replace(/^@+/, "");
  s = s.replace(/[^\p{L}\p{N}\s]/gu, " ").replace(/\s+/g, " ").trim();
  while (HONORIFICS.test(s)) s = s.replace(HONORIFICS, "");
  return s;
}

/** Stage 2: does the chosen target name one of the gold target's accepted names? */
export function targetMatches(target: string, accepted: readonly string[]): boolean {
  const t = normaliseName(target);
  return t !== "" && accepted.some((a) => normaliseName(a) === t);
}
