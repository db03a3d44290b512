import { officeAnswer } from '@/lib/back-office/dispatch';

/**
 * The back office's API (lib/back-office, lib/shared/back-office.ts): what the Studio's tool reads and
 * changes in the store. Every answer is for one officer, checked on each request, and is never cached.
 */

type Context = { params: Promise<{ path: string[] }> };

async function serve(request: Request, { params }: Context): Promise<Response> {
  return officeAnswer(request, (await params).path);
}

export { serve as GET, serve as POST };
