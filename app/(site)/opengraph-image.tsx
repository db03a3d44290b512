import { ImageResponse } from 'next/og';

import { getLandingPage, getSettings } from '@/lib/content';

export const alt = 'Connect with your school community';
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';

/** One share image for the site, drawn from the landing copy so it follows edits. */
export default async function OpenGraphImage() {
  const [settings, page] = await Promise.all([getSettings(), getLandingPage()]);
  return new ImageResponse(
    (
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
        <div style={{ fontSize: 40, opacity: 0.85 }}>{settings.productName}</div>
        <div style={{ fontSize: 76, fontWeight: 700, marginTop: 24, lineHeight: 1.1 }}>{page.hero.headline}</div>
        <div style={{ fontSize: 34, marginTop: 32, opacity: 0.9 }}>{page.hero.text}</div>
      </div>
    ),
    size,
  );
}
