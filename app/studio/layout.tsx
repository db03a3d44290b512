import type { Metadata } from 'next';
import type { ReactNode } from 'react';

// The Studio is its own root layout: no site header, footer or styles, and never indexed.
export const metadata: Metadata = {
  title: 'Studio',
  robots: { index: false, follow: false },
};

export default function StudioLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ margin: 0 }}>{children}</body>
    </html>
  );
}
