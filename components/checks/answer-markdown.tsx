"use client";
import type { Element, ElementContent, Root, Text } from "hast";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

export type HighlightEntity = { name: string; kind: "brand" | "competitor"; aliases: string[] };

const WORD = /[\p{L}\p{N}]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A rehype step that wraps the tracked names in the answer in <mark>, one colour for the brand
 * and one for competitors. It is a reading aid only; the numbers come from lib/analysis.
 */
function highlightEntities(entities: HighlightEntity[]) {
  const names = entities
    .flatMap((e) => [e.name, ...e.aliases].filter(Boolean).map((text) => ({ text, kind: e.kind, entity: e.name })))
    .sort((a, b) => b.text.length - a.text.length);
  if (!names.length) return () => () => {};
  const pattern = new RegExp(names.map((n) => escape(n.text)).join("|"), "giu");
  const kindOf = (match: string) => names.find((n) => n.text.toLowerCase() === match.toLowerCase());

  function split(node: Text): ElementContent[] {
    const out: ElementContent[] = [];
    let last = 0;
    for (const match of node.value.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const before = node.value[start - 1] ?? "";
      const after = node.value[end] ?? "";
      if ((WORD.test(match[0][0]!) && WORD.test(before)) || (WORD.test(match[0].at(-1)!) && WORD.test(after))) continue;
      const found = kindOf(match[0]);
      if (start > last) out.push({ type: "text", value: node.value.slice(last, start) });
      out.push({
        type: "element",
        tagName: "mark",
        properties: { className: found?.kind === "brand" ? ["entity-brand"] : ["entity-competitor"], title: found?.entity },
        children: [{ type: "text", value: match[0] }],
      });
      last = end;
    }
    if (last < node.value.length) out.push({ type: "text", value: node.value.slice(last) });
    return out;
  }

  function walk(node: Root | Element) {
    const children: (typeof node.children)[number][] = [];
    for (const child of node.children) {
      if (child.type === "text") children.push(...split(child));
      else {
        if (child.type === "element" && child.tagName !== "code" && child.tagName !== "pre") walk(child);
        children.push(child);
      }
    }
    node.children = children as typeof node.children;
  }
  return () => (tree: Root) => walk(tree);
}

export function AnswerMarkdown({ text, entities }: { text: string; entities: HighlightEntity[] }) {
  return (
    <div className="answer-markdown space-y-2 text-sm leading-relaxed text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_li]:ml-5 [&_ol]:list-decimal [&_table]:w-full [&_table]:text-xs [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_ul]:list-disc [&_mark.entity-brand]:rounded [&_mark.entity-brand]:bg-emerald-100 [&_mark.entity-brand]:px-0.5 [&_mark.entity-competitor]:rounded [&_mark.entity-competitor]:bg-amber-100 [&_mark.entity-competitor]:px-0.5">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[highlightEntities(entities)]} components={{ a: (props) => <a {...props} target="_blank" rel="noreferrer noopener" /> }}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
