import { ROUTES } from '@/lib/shared/public-pages';

export function BackHome({ label }: { label: string }) {
  return (
    <a href={ROUTES.home} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <span aria-hidden="true">←</span> {label}
    </a>
  );
}
