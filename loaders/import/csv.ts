// A small RFC 4180 CSV reader: quoted fields may hold commas, quotes ("") and line breaks.

export interface CsvRow {
  /** 1-based line of the file on which the row starts. */
  line: number;
  fields: string[];
}

/** A quoted field that is never closed: the line it opens on, and which field of its row it is (0-based). */
export class UnclosedQuote extends Error {
  constructor(readonly line: number, readonly column: number) {
    super(`a quoted field opened on line ${line} is never closed`);
  }
}

/** Splits CSV text into rows. Throws UnclosedQuote on an unterminated quoted field. */
export function* parseCsv(text: string): Generator<CsvRow> {
  let i = 0;
  let line = 1;
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1; // byte-order mark
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let value = "";
      if (text[i] === '"') {
        const openLine = line;
        i++;
        for (;;) {
          if (i >= n) throw new UnclosedQuote(openLine, fields.length);
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === "\n") line++;
          value += c;
          i++;
        }
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") value += text[i++];
      } else {
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") value += text[i++];
      }
      fields.push(value);
      if (text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === "\r") i++;
    if (text[i] === "\n") {
      i++;
      line++;
    }
    if (fields.length === 1 && fields[0] === "") continue; // blank line
    yield {line: startLine, fields};
  }
}
