// Each format with real-shape lines (as nginx, Apache, Cloudflare Logpush, Vercel and Netlify
// write them) and, for combined, CSV and the JSON ones, generated lines read back exactly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat, parseCloudflare, parseCombined, parseCsv, parseNetlify, parseTimestamp, parseVercel, readCsvHeader, splitCsvLine, type LineResult } from "@/lib/traffic/formats";

const hits = (r: LineResult) => {
  if ("error" in r) throw new Error(r.error);
  return r.hits;
};

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";

describe("combined (nginx/Apache)", () => {
  it("reads a real nginx line, its time zone and the query-less path", () => {
    const line = `20.171.206.17 - - [08/Dec/2026:13:55:36 +0100] "GET /docs/pricing?ref=x HTTP/1.1" 200 5316 "-" "${GPTBOT}"`;
    expect(hits(parseCombined(line))).toEqual([{ at: new Date("2026-12-08T12:55:36Z"), host: null, path: "/docs/pricing", status: 200, userAgent: GPTBOT, ip: "20.171.206.17" }]);
    expect(detectFormat(line)).toBe("combined");
  });

  it("reads IPv6 clients, escaped quotes (nginx \\x22, Apache \\\") and an absolute target's host", () => {
    const line = `2001:db8::7 - - [01/Jan/2026:00:00:00 +0000] "GET https://Docs.Acme.com/a HTTP/1.1" 404 0 "-" "Bot \\x22quoted\\x22, with \\"commas\\""`;
    expect(hits(parseCombined(line))[0]).toMatchObject({ ip: "2001:db8::7", host: "Docs.Acme.com", path: "/a", status: 404, userAgent: 'Bot "quoted", with "commas"' });
  });

  it.each([
    ["cut short", `1.2.3.4 - - [08/Dec/2026:13:55:36 +0100] "GET /a HTTP/1.1`],
    ["a bad month", `1.2.3.4 - - [08/Dez/2026:13:55:36 +0100] "GET /a HTTP/1.1" 200 1 "-" "ua"`],
    ["no request line", `1.2.3.4 - - [08/Dec/2026:13:55:36 +0100] "-" 400 0 "-" "-"`],
    ["a TLS handshake", `1.2.3.4 - - [08/Dec/2026:13:55:36 +0100] "\\x16\\x03\\x01" 400 157 "-" "-"`],
    ["plain text", "hello"],
  ])("reports %s as an error", (_why, line) => {
    expect(parseCombined(line)).toHaveProperty("error");
  });

  it("reads back any generated line", () => {
    const safe = fc.string({ unit: fc.constantFrom(..."abcXYZ019 ;,()/+-._:\"\\".split("")), maxLength: 60 });
    const path = fc.array(fc.constantFrom(..."abc-_.%0".split("")), { maxLength: 20 }).map((c) => `/${c.join("")}`);
    fc.assert(
      fc.property(fc.date({ min: new Date("2000-01-01"), max: new Date("2099-01-01"), noInvalidDate: true }), path, fc.integer({ min: 100, max: 599 }), safe, fc.oneof(fc.ipV4(), fc.ipV6()), (at, p, status, ua, ip) => {
        const d = new Date(Math.floor(at.getTime() / 1000) * 1000);
        const pad = (n: number) => String(n).padStart(2, "0");
        const month = d.toUTCString().slice(8, 11);
        const time = `${pad(d.getUTCDate())}/${month}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
        const escaped = ua.replace(/\\/g, "\\\\").replace(/"/g, "\\x22");
        const line = `${ip} - - [${time}] "GET ${p}?q=1 HTTP/1.1" ${status} 12 "-" "${escaped}"`;
        expect(hits(parseCombined(line))).toEqual([{ at: d, host: null, path: p, status, userAgent: ua, ip }]);
      }),
    );
  });
});

describe("Cloudflare Logpush", () => {
  const record = { ClientIP: "2001:db8::1", ClientRequestHost: "acme.com", ClientRequestURI: "/blog/post?utm=1", ClientRequestUserAgent: GPTBOT, EdgeStartTimestamp: 1765200000000000000, EdgeResponseStatus: 200, RayID: "8c1" };

  it("reads nanosecond, RFC 3339 and Unix-second timestamps", () => {
    const at = new Date(1765200000000);
    expect(hits(parseCloudflare(JSON.stringify(record)))).toEqual([{ at, host: "acme.com", path: "/blog/post", status: 200, userAgent: GPTBOT, ip: "2001:db8::1" }]);
    expect(hits(parseCloudflare(JSON.stringify({ ...record, EdgeStartTimestamp: at.toISOString() })))[0]!.at).toEqual(at);
    expect(hits(parseCloudflare(JSON.stringify({ ...record, EdgeStartTimestamp: 1765200000 })))[0]!.at).toEqual(at);
    expect(detectFormat(JSON.stringify(record))).toBe("cloudflare");
  });

  it("names the field at fault", () => {
    expect(parseCloudflare(JSON.stringify({ ...record, EdgeResponseStatus: "ok" }))).toEqual({ error: expect.stringMatching(/EdgeResponseStatus/) });
    expect(parseCloudflare(JSON.stringify({ ...record, ClientRequestURI: undefined }))).toEqual({ error: expect.stringMatching(/ClientRequestURI/) });
    expect(parseCloudflare('{"ClientIP": "1.2.3.4",')).toEqual({ error: "not valid JSON" });
  });

  it("reads back any generated record", () => {
    fc.assert(
      fc.property(fc.webPath(), fc.domain(), fc.integer({ min: 100, max: 599 }), fc.string(), fc.oneof(fc.ipV4(), fc.ipV6()), (p, host, status, ua, ip) => {
        const path = p.startsWith("/") ? p : `/${p}`;
        const line = JSON.stringify({ ...record, ClientRequestURI: path, ClientRequestHost: host, EdgeResponseStatus: status, ClientRequestUserAgent: ua, ClientIP: ip });
        expect(hits(parseCloudflare(line))).toEqual([{ at: new Date(1765200000000), host, path: path.split(/[?#]/)[0], status, userAgent: ua, ip }]);
      }),
    );
  });
});

describe("Vercel log drain", () => {
  const entry = {
    id: "1573817187330377061717300000", deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD", source: "static", host: "acme-git-main.vercel.app", timestamp: 1765200000000, projectId: "gdufoJxB6b9b1fEqr1jUtFkyavUU", level: "info",
    proxy: { timestamp: 1765200000000, method: "GET", scheme: "https", host: "acme.com", path: "/docs?x=1", userAgent: [GPTBOT], referer: "", statusCode: 200, clientIp: "20.171.206.17", region: "fra1" },
  };

  it("reads a delivery's array, skipping lines with no proxy (build and function output)", () => {
    const line = JSON.stringify([entry, { id: "2", deploymentId: "d", source: "build", host: "x", timestamp: 1, message: "Build done" }, { ...entry, proxy: { ...entry.proxy, path: "/b" } }]);
    expect(hits(parseVercel(line)).map((h) => [h.host, h.path, h.userAgent, h.ip])).toEqual([
      ["acme.com", "/docs", GPTBOT, "20.171.206.17"],
      ["acme.com", "/b", GPTBOT, "20.171.206.17"],
    ]);
    expect(detectFormat(line)).toBe("vercel");
    expect(detectFormat(JSON.stringify(entry))).toBe("vercel");
  });
});

describe("Netlify log drain", () => {
  const traffic = { log_type: "traffic", request_id: "01J", account_id: "a", site_id: "s", deploy_id: "d", timestamp: "2026-12-08T12:00:00.123Z", duration: 12, status_code: 200, client_ip: "2a02:6b8::1", method: "GET", url: "/pricing", user_agent: GPTBOT, referrer: "", country: "DE" };

  it("reads traffic records and skips the other log types", () => {
    expect(hits(parseNetlify(JSON.stringify(traffic)))).toEqual([{ at: new Date("2026-12-08T12:00:00.123Z"), host: null, path: "/pricing", status: 200, userAgent: GPTBOT, ip: "2a02:6b8::1" }]);
    expect(hits(parseNetlify(JSON.stringify({ log_type: "functions", message: "hi" })))).toEqual([]);
    expect(detectFormat(JSON.stringify(traffic))).toBe("netlify");
  });
});

describe("CSV", () => {
  const header = readCsvHeader("timestamp,host,path,status,user_agent,ip");
  if ("error" in header) throw new Error(header.error);

  it("reads quoted user agents with commas and doubled quotes, in any column order", () => {
    const line = `2026-12-08T10:00:00Z,acme.com,/a?b=1,301,"Mozilla/5.0 (compatible; ""X"", GPTBot/1.1)",2001:db8::9`;
    expect(hits(parseCsv(line, header))).toEqual([{ at: new Date("2026-12-08T10:00:00Z"), host: "acme.com", path: "/a", status: 301, userAgent: 'Mozilla/5.0 (compatible; "X", GPTBot/1.1)', ip: "2001:db8::9" }]);
    const other = readCsvHeader("ip,user_agent,status,path,host,timestamp");
    if ("error" in other) throw new Error(other.error);
    expect(hits(parseCsv(`1.2.3.4,ua,200,/x,acme.com,1765200000`, other))[0]).toMatchObject({ path: "/x", ip: "1.2.3.4", at: new Date(1765200000000) });
    expect(detectFormat("timestamp,host,path,status,user_agent,ip")).toBe("csv");
  });

  it("reports unbalanced quotes and a header that lacks columns", () => {
    expect(parseCsv(`2026-12-08T10:00:00Z,acme.com,/a,200,"broken,1.2.3.4`, header)).toEqual({ error: "unbalanced quotes" });
    expect(readCsvHeader("time,url")).toEqual({ error: expect.stringMatching(/lacks timestamp, host, path, status, user_agent/) });
  });

  it("splits any generated record back into its fields", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 8 }), (fields) => {
        const line = fields.map((f) => (/[",]/.test(f) || f === "" ? `"${f.replace(/"/g, '""')}"` : f)).join(",");
        fc.pre(!fields.some((f) => f.includes("\n")));
        expect(splitCsvLine(line)).toEqual(fields);
      }),
    );
  });
});

describe("detectFormat", () => {
  it("knows none of these", () => {
    expect(detectFormat("hello world")).toBeNull();
    expect(detectFormat('{"a": 1}')).toBeNull();
    expect(detectFormat("{broken")).toBeNull();
  });
});

describe("times", () => {
  it("keeps years 1 to 9999 and refuses the rest, whatever the unit guessed from the number's size", () => {
    expect(parseTimestamp("9999-12-31T23:59:59Z")?.toISOString()).toBe("9999-12-31T23:59:59.000Z");
    expect(parseTimestamp(1_796_630_400)?.toISOString()).toBe("2026-12-07T08:00:00.000Z");
    // A nanosecond count too large by a thousand reads as milliseconds of year 65347.
    expect(parseTimestamp(2e21)).toBeNull();
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e25, noNaN: true }), (n) => {
        const at = parseTimestamp(n);
        if (at) expect(at.getUTCFullYear()).toBeLessThanOrEqual(9999);
      }),
    );
  });

  it("reads a time without a zone as UTC, whatever the server's time zone (JavaScript would read it as local time)", () => {
    const zone = process.env.TZ;
    process.env.TZ = "Europe/Berlin";
    try {
      expect(new Date("2026-12-08T00:30:00").toISOString(), "the zone is in effect").toBe("2026-12-07T23:30:00.000Z");
      expect(parseTimestamp("2026-12-08 00:30:00")?.toISOString()).toBe("2026-12-08T00:30:00.000Z");
      expect(parseTimestamp("2026-12-08T00:30:00.123")?.toISOString()).toBe("2026-12-08T00:30:00.123Z");
      expect(parseTimestamp("2026-12-08T00:30")?.toISOString()).toBe("2026-12-08T00:30:00.000Z");
      expect(parseTimestamp("2026-12-08")?.toISOString()).toBe("2026-12-08T00:00:00.000Z");
      // A zone given is kept.
      expect(parseTimestamp("2026-12-08T00:30:00+01:00")?.toISOString()).toBe("2026-12-07T23:30:00.000Z");
      expect(parseTimestamp("2026-12-08 00:30:00Z")?.toISOString()).toBe("2026-12-08T00:30:00.000Z");
      fc.assert(
        fc.property(fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }), fc.boolean(), (at, space) => {
          const text = at.toISOString().replace("Z", "");
          expect(parseTimestamp(space ? text.replace("T", " ") : text)?.toISOString()).toBe(at.toISOString());
        }),
      );
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
