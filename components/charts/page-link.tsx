import { displayUrl } from "@/lib/analysis/host";
/**
 * A cited page: its title linked (its address when it has none), the address below the title.
 * An address breaks anywhere: one without hyphens would otherwise run over the next column.
 */
export function PageLink({ url, title }: { url: string; title: string | null }) {
  return (
    <>
      <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="font-medium wrap-anywhere text-brand-700 hover:underline">
        {title || displayUrl(url)}
      </a>
      {title && <span className="block truncate text-xs text-slate-500">{displayUrl(url)}</span>}
    </>
  );
}
