export function ProductName() {
  return <span className="px-1 text-lg font-bold tracking-tight text-brand-700">◉ Beacon</span>;
}
