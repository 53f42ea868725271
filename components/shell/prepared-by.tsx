/** "Prepared by <agency>" with its logo, at the top of shared reports and printouts. */
export function PreparedBy({ name, logoSrc, className = "" }: { name: string | null; logoSrc: string | null; className?: string }) {
  if (!name && !logoSrc) return null;
  return (
    <div className={`flex items-center gap-3 ${className}`} data-prepared-by>
      {/* eslint-disable-next-line @next/next/no-img-element -- a small logo served by our own route; next/image would proxy it for nothing */}
      {logoSrc && <img src={logoSrc} alt={name ? `${name} logo` : "Agency logo"} className="h-10 max-w-40 object-contain" />}
      {name && <p className="text-sm text-slate-600">Prepared by <span className="font-semibold text-slate-900">{name}</span></p>}
    </div>
  );
}
