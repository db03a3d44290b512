import { PortableText as Render, type PortableTextComponents } from '@portabletext/react';
import type { ComponentProps } from 'react';

import { SiteLink } from './site-link';

const components: PortableTextComponents = {
  block: {
    normal: ({ children }) => <p className="mt-4 leading-7 text-muted">{children}</p>,
    h3: ({ children }) => <h3 className="mt-6 text-lg font-semibold text-ink">{children}</h3>,
  },
  list: {
    bullet: ({ children }) => <ul className="mt-4 list-disc ps-6 text-muted">{children}</ul>,
    number: ({ children }) => <ol className="mt-4 list-decimal ps-6 text-muted">{children}</ol>,
  },
  listItem: ({ children }) => <li className="leading-7 not-first:mt-2">{children}</li>,
  marks: {
    strong: ({ children }) => <strong className="font-semibold text-ink">{children}</strong>,
    link: ({ value, children }) => (
      <SiteLink href={(value as { href?: string } | undefined)?.href} className="font-medium text-brand-700 underline">
        {children}
      </SiteLink>
    ),
  },
};

export function PortableText({ value }: { value: ComponentProps<typeof Render>['value'] }) {
  return <Render value={value} components={components} />;
}
