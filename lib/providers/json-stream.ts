// Splits a streamed body into its top-level JSON values as they complete: a JSON array of objects
// (how Yandex's REST gateway sends a server-streaming gRPC method: `[{...},{...}]`), newline
// delimited objects, or a single object. Strings are tracked so that braces inside them do not
// count. Anything else at the top level (an HTML page, a bare word) is reported as garbage.
export type JsonStreamSplitter = {
  /** Feeds decoded text; returns the values it completed, in order, each as its JSON text. */
  push: (text: string) => string[];
  /** True when text of a value that has not completed is pending. */
  pending: () => boolean;
};

export class JsonStreamGarbageError extends SyntaxError {
  constructor(readonly sample: string) {
    super(`not a JSON value: ${sample.slice(0, 120)}`);
    this.name = "JsonStreamGarbageError";
  }
}

export function jsonStreamSplitter(): JsonStreamSplitter {
  let buffer = "";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  let openedArray = false;
  return {
    pending: () => start >= 0,
    push(text) {
      const values: string[] = [];
      const from = buffer.length;
      buffer += text;
      for (let i = from; i < buffer.length; i++) {
        const c = buffer[i]!;
        if (start < 0) {
          if (/\s/.test(c) || c === ",") continue;
          if (c === "[" && !openedArray) {
            openedArray = true;
            continue;
          }
          if (c === "]" && openedArray) {
            openedArray = false;
            continue;
          }
          if (c !== "{") throw new JsonStreamGarbageError(buffer.slice(i));
          start = i;
          depth = 0;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (c === "\\") escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === "{" || c === "[") depth += 1;
        else if (c === "}" || c === "]") {
          depth -= 1;
          if (depth === 0) {
            values.push(buffer.slice(start, i + 1));
            start = -1;
          }
        }
      }
      // Keep only the value in progress, so a long stream is not scanned twice.
      const keepFrom = start >= 0 ? start : buffer.length;
      buffer = buffer.slice(keepFrom);
      if (start >= 0) start = 0;
      return values;
    },
  };
}
