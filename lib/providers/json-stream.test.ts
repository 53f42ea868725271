import { describe, expect, it } from "vitest";
import { JsonStreamGarbageError, jsonStreamSplitter } from "@/lib/providers/json-stream";

describe("jsonStreamSplitter", () => {
  it("yields each element of a streamed array once it completes, whatever the chunk boundaries", () => {
    const body = '[{"a":"x}{\\"]","b":[1,{"c":2}]},\n{"d":"é"}]';
    for (let size = 1; size <= body.length; size++) {
      const splitter = jsonStreamSplitter();
      const values: string[] = [];
      for (let i = 0; i < body.length; i += size) values.push(...splitter.push(body.slice(i, i + size)));
      expect(values.map((v) => JSON.parse(v) as unknown)).toEqual([{ a: 'x}{"]', b: [1, { c: 2 }] }, { d: "é" }]);
      expect(splitter.pending()).toBe(false);
    }
  });

  it("reads a single object and newline-delimited objects, and reports a value left open", () => {
    const splitter = jsonStreamSplitter();
    expect(splitter.push('{"a":1}\n{"b":2}\n{"c":')).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitter.pending()).toBe(true);
  });

  it("rejects what is not JSON objects at the top level", () => {
    expect(() => jsonStreamSplitter().push("<html><body>502</body></html>")).toThrow(JsonStreamGarbageError);
  });
});
