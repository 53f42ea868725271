import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { robotsOutcome, robotsPolicy } from "@/lib/traffic/robots";

const ORIGIN = "https://acme.example";
const read = (body: string) => robotsPolicy(ORIGIN, "found", body);

describe("robotsOutcome (RFC 9309 2.3.1)", () => {
  it("reads 2xx as a file, 4xx as none, 5xx, 429 and no answer as unreachable", () => {
    expect([200, 203].map(robotsOutcome)).toEqual(["found", "found"]);
    expect([301, 401, 403, 404, 410].map(robotsOutcome)).toEqual(["missing", "missing", "missing", "missing", "missing"]);
    expect([429, 500, 503, null].map(robotsOutcome)).toEqual(["unreachable", "unreachable", "unreachable", "unreachable"]);
  });
  it("allows everything when there is no file and disallows everything when it cannot be reached", () => {
    fc.assert(
      fc.property(fc.webPath(), fc.constantFrom("GPTBot", "ClaudeBot", "Google-Extended", "*"), (path, token) => {
        expect(robotsPolicy(ORIGIN, "missing")(path, token)).toBe(true);
        expect(robotsPolicy(ORIGIN, "unreachable")(path, token)).toBe(false);
      }),
    );
  });
});

describe("robotsPolicy on real-world shapes", () => {
  it("applies a crawler's own group instead of *, with several user-agents in one group", () => {
    const policy = read(["User-agent: *", "Disallow: /private/", "", "User-agent: GPTBot", "User-agent: CCBot", "Disallow: /", "", "User-agent: OAI-SearchBot", "Allow: /"].join("\n"));
    expect(policy("/", "GPTBot")).toBe(false);
    expect(policy("/blog/post", "CCBot")).toBe(false);
    expect(policy("/private/x", "OAI-SearchBot")).toBe(true);
    expect(policy("/blog/post", "ClaudeBot")).toBe(true);
    expect(policy("/private/x", "ClaudeBot")).toBe(false);
  });
  it("matches tokens case-insensitively and robots-only tokens by their own groups", () => {
    const policy = read("user-agent: google-extended\ndisallow: /\n\nUser-Agent: APPLEBOT-EXTENDED\nDisallow: /docs\n");
    expect(policy("/", "Google-Extended")).toBe(false);
    expect(policy("/", "Googlebot")).toBe(true);
    expect(policy("/docs/a", "Applebot-Extended")).toBe(false);
    expect(policy("/pricing", "Applebot-Extended")).toBe(true);
  });
  it("reads wildcards, $ and the longest match (allow wins a tie)", () => {
    const policy = read(["User-agent: *", "Disallow: /*.pdf$", "Disallow: /search", "Allow: /search/help", "Disallow: /a*/draft", "Allow: /page", "Disallow: /page"].join("\n"));
    expect(policy("/files/report.pdf", "GPTBot")).toBe(false);
    expect(policy("/files/report.pdf?x=1", "GPTBot")).toBe(true);
    expect(policy("/search?q=1", "GPTBot")).toBe(false);
    expect(policy("/search/help", "GPTBot")).toBe(true);
    expect(policy("/about/draft", "GPTBot")).toBe(false);
    expect(policy("/page", "GPTBot")).toBe(true);
  });
  it("treats an empty Disallow as allow-all for its group and ignores comments and unknown lines", () => {
    const policy = read("# hello\nUser-agent: ClaudeBot # Anthropic\nDisallow:\n\nUser-agent: *\nDisallow: / # everything\nCrawl-delay: 10\nSitemap: https://acme.example/sitemap.xml\n");
    expect(policy("/any", "ClaudeBot")).toBe(true);
    expect(policy("/any", "PerplexityBot")).toBe(false);
  });
  it("merges groups that name the same crawler twice", () => {
    const policy = read("User-agent: GPTBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /b\n");
    expect([policy("/a", "GPTBot"), policy("/b", "GPTBot"), policy("/c", "GPTBot")]).toEqual([false, false, true]);
  });

  // A file written with a byte order mark and CRLF (or old-Mac CR) line ends reads like the plain one.
  const line = fc.oneof(
    fc.constantFrom("GPTBot", "ClaudeBot", "*", "Google-Extended").map((t) => `User-agent: ${t}`),
    fc.tuple(fc.constantFrom("Allow", "Disallow"), fc.constantFrom("/", "/a", "/a/*", "/*.pdf$", "/b$", "")).map(([k, v]) => `${k}: ${v}`),
    fc.constant(""),
    fc.constant("# comment"),
  );
  it("reads a BOM and CRLF or CR line ends like plain LF", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom("/", "/a", "/a/b", "/x.pdf", "/b"), fc.constantFrom("GPTBot", "ClaudeBot", "Google-Extended", "CCBot"), (lines, path, token) => {
        const plain = read(lines.join("\n"))(path, token);
        expect(read(`\uFEFF${lines.join("\r\n")}`)(path, token)).toBe(plain);
        expect(read(lines.join("\r"))(path, token)).toBe(plain);
      }),
    );
  });
  it("reads a BOM before the first group", () => {
    expect(read("\uFEFFUser-agent: GPTBot\r\nDisallow: /\r\n")("/", "GPTBot")).toBe(false);
  });
});

describe("percent-encoding (RFC 9309 2.2.2)", () => {
  it("compares an unreserved character the same encoded or not, and keeps a reserved one's escape apart", () => {
    const blocks = (rule: string, path: string) => !read(`User-agent: *\nDisallow: ${rule}\n`)(path, "GPTBot");
    expect(blocks("/%7Euser", "/~user")).toBe(true);
    expect(blocks("/~user", "/%7euser")).toBe(true);
    expect(blocks("/caf%C3%A9", "/caf%c3%a9")).toBe(true);
    // "/" and "%2F" are not the same path.
    expect(blocks("/a%2Fb", "/a/b")).toBe(false);
    expect(blocks("/a/b", "/a%2Fb")).toBe(false);
    fc.assert(
      // Not "." or "..": a URL's dot segments are resolved before any rule is read.
      fc.property(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((segment) => !/^\.{1,2}$/.test(segment)), (segment) => {
        const encoded = [...segment].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
        expect(blocks(`/${encoded}`, `/${segment}`)).toBe(true);
        expect(blocks(`/${segment}`, `/${encoded.toUpperCase()}`)).toBe(true);
      }),
    );
  });
});
