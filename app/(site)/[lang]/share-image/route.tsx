import { ImageResponse } from 'next/og';

import { getLandingPage, getSettings } from '@/lib/content';
import { SHARE_IMAGE_SIZE } from '@/lib/content/metadata';

import { languageParams, pageLanguage } from '../../_components/page-language';

/**
 * The one share image of the site (og:image), drawn from the landing copy so it follows edits. A route
 * rather than an opengraph-image file: that convention takes the image's description (og:image:alt)
 * only as a constant, and here it is the editor's (siteMetadata in lib/content/metadata.ts). Prerendered
 * from the cached content, refreshed by the publish webhook like the pages (its text is theirs).
 */
export const generateStaticParams = languageParams;

export async function GET(_request: Request, { params }: RouteContext<'/[lang]/share-image'>) {
  const { tag } = await pageLanguage({ params });
  const [settings, page] = await Promise.all([getSettings(tag), getLandingPage(tag)]);
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        padding: '80px',
        background: 'linear-gradient(135deg, #2a41ad, #1c2a6b)',
        color: 'white',
      }}
    >
      <div style={{ fontSize: 40, opacity: 0.85 }}>{settings.meta.name}</div>
      <div style={{ fontSize: 76, fontWeight: 700, marginTop: 24, lineHeight: 1.1 }}>{page.hero.headline}</div>
      <div style={{ fontSize: 34, marginTop: 32, opacity: 0.9 }}>{page.hero.text}</div>
    </div>,
    SHARE_IMAGE_SIZE,
  );
}
