/** A cited page in a table: its title linked (the address when it has none), the address below. */
export function PageLinkCell({ url, title }: { url: string; title: string | null }) {
  return (
    <td className="max-w-xl px-4 py-3">
      <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-brand-700 hover:underline">
        {title || url}
      </a>
      {title && <span className="block truncate text-xs text-slate-500">{url}</span>}
    </td>
  );
}
