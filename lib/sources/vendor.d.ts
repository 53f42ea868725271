// punycode.js ships no types; what Beacon uses of it. It is CommonJS: one default export.
declare module "punycode.js" {
  const punycode: { toUnicode(domain: string): string };
  export default punycode;
}
